"""Letter Boxed: rules, checker, exact DP against brute force, CP-SAT cross-check, seed, CLI."""

from __future__ import annotations

import json
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpwords.cli import main
from cpwords.core.errors import InputError
from cpwords.core.result import Status
from cpwords.letterboxed.heuristics import (
    build_trie,
    seed_baseline,
    seed_find_words,
    seed_two_word_pairs,
)
from cpwords.letterboxed.models.dp import LetterBoxedSolver, count_letterboxed
from cpwords.letterboxed.models.setcover import solve_letterboxed_setcover
from cpwords.letterboxed.rules import (
    WORD_WEIGHT,
    LetterBox,
    brute_force_short_solutions,
    is_playable,
    is_valid_letterboxed,
    letterboxed_problems,
    objective_value,
    parse_box,
    score,
    split_solution,
)
from cpwords.letterboxed.spec import solve_letterboxed
from tests.conftest import needs_dictionary

BAD = Path(__file__).parents[1] / "data" / "bad"
BOX = parse_box("abc-def-ghi-jkl")
COUNT_ARGS = ("--max-words", "3", "--list", "--json")


# ----------------------------------------------------------------------------- brute force


def brute_chains(box: LetterBox, words: list[str], depth: int) -> Iterator[list[str]]:
    """Every valid solution of at most ``depth`` words (words may repeat), by plain DFS.

    Uses only the rules module's ``is_playable`` and the independent checker.
    """
    playable = sorted({w for w in words if is_playable(w, box)})

    def rec(chain: list[str]) -> Iterator[list[str]]:
        if chain and is_valid_letterboxed(box, chain):
            yield list(chain)
            return  # the game ends when the box is covered
        if len(chain) == depth:
            return
        for w in playable:
            if not chain or chain[-1][-1] == w[0]:
                chain.append(w)
                yield from rec(chain)
                chain.pop()

    yield from rec([])


@st.composite
def small_cases(draw: st.DrawFn, pool: str = string.ascii_lowercase) -> tuple[LetterBox, list[str]]:
    """A small box of any shape and a lexicon of mostly playable words over its letters
    (drawn from ``pool``: a-z, or another alphabet)."""
    n_sides = draw(st.integers(2, 4))
    per_side = draw(st.integers(1, 2))
    letters = draw(
        st.lists(
            st.sampled_from(pool),
            min_size=n_sides * per_side,
            max_size=n_sides * per_side,
            unique=True,
        )
    )
    sides = tuple("".join(letters[i * per_side : (i + 1) * per_side]) for i in range(n_sides))
    box = LetterBox(sides)
    side_of = box.side_of
    alphabet = box.letters
    words = []
    for _ in range(draw(st.integers(1, 9))):
        length = draw(st.integers(3, 6))
        w = draw(st.sampled_from(alphabet))
        playable = draw(st.booleans()) or draw(st.booleans())
        while len(w) < length:
            choices = (
                [c for c in alphabet if side_of[c] != side_of[w[-1]]] if playable else alphabet
            )
            w += draw(st.sampled_from(sorted(choices)))
        words.append(w)
    return box, words


# ----------------------------------------------------------------------------- box and rules


@pytest.mark.parametrize(
    "spec",
    ["abc-def-ghi-jkl", "ABC DEF GHI JKL", "abc,def,ghi,jkl", ["abc", "def", "ghi", "jkl"]],
)
def test_parse_box_forms(spec: str | list[str]) -> None:
    assert parse_box(spec).sides == ("abc", "def", "ghi", "jkl")


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("abc-def-ghi", "4 sides"),
        ("abc-def-ghi-jkl-mno", "4 sides"),
        ("abc-def-ghi-jk", "side 4"),
        ("abcd-ef-ghi-jkl", "side 1"),
        ("abc-dea-ghi-jkl", "'a' appears on sides 1 and 2"),
        ("aac-def-ghi-jkl", "twice on side 1"),
        ("ab1-def-ghi-jkl", "not a letter"),
        ("ab_-def-ghi-jkl", "not a letter"),
        ("abé-def-ghi-jké", "appears on sides 1 and 4"),
        ("", "empty"),
    ],
)
def test_parse_box_rejects(spec: str, needle: str) -> None:
    with pytest.raises(InputError, match=needle):
        parse_box(spec)


def test_any_shape_is_opt_in() -> None:
    assert parse_box("ab-cd-ef", shape=None).shape == (2, 2, 2)
    with pytest.raises(InputError):
        parse_box("ab-cd-ef")


def test_rules_by_hand() -> None:
    assert is_playable("bead", BOX)  # b(1) e(2) a(1) d(2)
    assert not is_playable("cab", BOX)  # c and a on the same side
    assert not is_playable("ad", BOX)  # too short
    assert not is_playable("bez", BOX)  # z not in the box
    assert not is_playable("beef", BOX)  # e, e: the same side twice in a row


def test_checker_reports_each_broken_rule() -> None:
    assert letterboxed_problems(BOX, []) == ["the solution has no words"]
    problems = letterboxed_problems(BOX, ["bead", "fig"])
    assert any("does not start with" in p for p in problems)
    assert any("never used" in p for p in problems)
    assert any("not in the lexicon" in p for p in letterboxed_problems(BOX, ["bead"], {"dab"}))
    # A chain that covers the box before its last word is not a solution (the game ends).
    box = LetterBox(("ab", "cd"))
    assert is_valid_letterboxed(box, ["acbd"])
    assert any("game ends there" in p for p in letterboxed_problems(box, ["acbd", "dad"]))
    assert score(["acbd", "dad"]) == (2, 7)
    assert objective_value(["acbd"]) == WORD_WEIGHT + 4


# ----------------------------------------------------------------------------- exact method


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_cases())
def test_exact_matches_brute_force(case: tuple[LetterBox, list[str]]) -> None:
    box, words = case
    depth = 3
    brute = list(brute_chains(box, words, depth))
    result = solve_letterboxed(box, words, all_solutions=True)
    if brute:
        best = min(score(c) for c in brute)
        assert result.status is Status.OPTIMAL
        assert (result.solver_info["words"], result.solver_info["letters"]) == best
        assert result.objective == result.bound == WORD_WEIGHT * best[0] + best[1]
        optimal = sorted(tuple(c) for c in brute if score(c) == best)
        assert sorted(map(tuple, result.solver_info["optimal_solutions"])) == optimal
    else:
        assert result.status is Status.INFEASIBLE or result.solver_info["words"] > depth
    if result.solution is not None:
        assert result.verified and is_valid_letterboxed(box, result.solution, set(words))


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_cases())
def test_counts_and_listing_match_brute_force(case: tuple[LetterBox, list[str]]) -> None:
    box, words = case
    brute = list(brute_chains(box, words, 3))
    count = count_letterboxed(box, words, max_words=3, list_limit=None)
    assert count.by_words == tuple(sum(len(c) == j for c in brute) for j in (1, 2, 3))
    assert sorted(count.solutions) == sorted(tuple(c) for c in brute)
    assert [len(s) for s in count.solutions] == sorted(len(s) for s in count.solutions)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(small_cases())
def test_playable_words_and_seed_walk_agree_with_rules(case: tuple[LetterBox, list[str]]) -> None:
    box, words = case
    expected = sorted({w for w in words if is_playable(w, box)})
    assert LetterBoxedSolver(words).playable_words(box) == expected
    assert sorted({w for w, _ in seed_find_words(build_trie(words), box)}) == expected


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(small_cases())
def test_seed_pairs_and_baseline_never_beat_the_optimum(
    case: tuple[LetterBox, list[str]],
) -> None:
    box, words = case
    playable = sorted({w for w in words if is_playable(w, box)})
    expected = sorted(
        (a, b)
        for a in playable
        for b in playable
        if a[-1] == b[0] and set(a + b) >= set(box.letters)
    )
    assert sorted(seed_two_word_pairs(build_trie(words), box)) == expected
    optimum = solve_letterboxed(box, words)
    for pick in ("first", "fewest-letters"):
        base = seed_baseline(box, words, pick=pick)
        assert base.sense == "min" and base.bound is None
        if base.solution is None:
            assert base.status is Status.UNKNOWN
            continue
        assert optimum.objective is not None and base.objective is not None
        assert base.objective >= optimum.objective


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_cases())
def test_setcover_model_agrees_with_dp(case: tuple[LetterBox, list[str]]) -> None:
    box, words = case
    dp = solve_letterboxed(box, words)
    cp = solve_letterboxed(box, words, method="cpsat", time_limit=20)
    if dp.status is Status.INFEASIBLE:
        assert cp.status is Status.INFEASIBLE
    elif dp.solver_info["words"] <= 6:
        assert cp.status is Status.OPTIMAL and cp.objective == dp.objective
        assert cp.verified


@st.composite
def six_letter_cases(draw: st.DrawFn) -> list[str]:
    """Up to 6 playable words on the box ab-cd-ef: optima of 2 to 5 words occur."""
    side = {"a": 0, "b": 0, "c": 1, "d": 1, "e": 2, "f": 2}
    words = []
    for _ in range(draw(st.integers(3, 6))):
        w = draw(st.sampled_from("abcdef"))
        for _ in range(draw(st.integers(2, 3))):
            w += draw(st.sampled_from([c for c in "abcdef" if side[c] != side[w[-1]]]))
        words.append(w)
    return words


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(six_letter_cases())
def test_deep_chains_match_brute_force(words: list[str]) -> None:
    box = LetterBox(("ab", "cd", "ef"))
    brute = list(brute_chains(box, words, 5))
    result = solve_letterboxed(box, words)
    count = count_letterboxed(box, words, max_words=5)
    assert count.by_words == tuple(sum(len(c) == j for c in brute) for j in range(1, 6))
    if brute:
        best = min(score(c) for c in brute)
        assert (result.solver_info["words"], result.solver_info["letters"]) == best
    else:
        assert result.status is Status.INFEASIBLE or result.solver_info["words"] > 5


def test_hand_solved_three_word_box() -> None:
    # Box ab-cd-ef. Only bca and bfad hold b; bca ends in a and no word starts with a, and
    # bfad (b,f,a,d) needs c and e from one word starting with d: only dae (no c). So no
    # solution has 2 words; bfad-dae-eac and bfad-dae-ece cover all six with 10 letters.
    box = LetterBox(("ab", "cd", "ef"))
    words = ["bca", "ece", "dae", "eac", "bfad"]
    r = solve_letterboxed(box, words, all_solutions=True)
    assert r.status is Status.OPTIMAL and r.objective == 3 * WORD_WEIGHT + 10
    assert sorted(r.solver_info["optimal_solutions"]) == [
        ["bfad", "dae", "eac"],
        ["bfad", "dae", "ece"],
    ]
    cp = solve_letterboxed_setcover(box, words)
    assert cp.status is Status.OPTIMAL and cp.objective == r.objective


def test_covered_letters_without_a_chain_is_infeasible() -> None:
    # Every letter is in some word, but no chain links them: the fixpoint proves it.
    box = LetterBox(("ab", "cd"))
    words = ["aca", "bdb"]
    r = solve_letterboxed(box, words)
    assert r.status is Status.INFEASIBLE and r.solution is None
    assert list(brute_chains(box, words, 5)) == []
    assert solve_letterboxed_setcover(box, words).status is Status.INFEASIBLE


def test_solver_reused_across_boxes() -> None:
    solver = LetterBoxedSolver(["bead", "dig", "gulf", "fleck", "kahlij", "jab", "beg"])
    a = solver.playable_words("abc-def-ghi-jkl")
    b = solver.playable_words("bca-def-ghi-jkl")
    assert a == b  # same sides, letters in another order
    assert solver.playable_words("abc-dfe-gih-jkl") == a


def test_empty_lexicon_is_an_input_error() -> None:
    with pytest.raises(InputError):
        LetterBoxedSolver(["ab", "io"])


# ----------------------------------------------------------------------------- CLI


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, err = capsys.readouterr()
    code = exc.value.code
    return (code if isinstance(code, int) else 1), out, err


@pytest.fixture()
def tiny_dict(tmp_path: Path) -> Path:
    # Hand-solved on abc-def-ghi-jkl (sides abc|def|ghi|jkl): "cab" is unplayable; the only
    # solutions of <= 3 words are BECHFAG-GJDKIL (2 words, 13 letters, the optimum) and
    # BEAD-DHL-LCFGJIK (3 words); BECHFAG-GJDKIL-... would go on after the box is covered.
    p = tmp_path / "tiny.txt"
    p.write_text("bechfag\ngjdkil\nbead\ndhl\nlcfgjik\ncab\n")
    return p


def test_cli_json_solution(tiny_dict: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        ["letterboxed", "abc-def-ghi-jkl", "--dict", str(tiny_dict), "--json", "--all"], capsys
    )
    data = json.loads(out)
    assert code == 0 and data["status"] == "OPTIMAL" and data["verified"] is True
    assert data["solution"] == ["bechfag", "gjdkil"]
    assert (data["num_words"], data["num_letters"]) == (2, 13)
    assert data["objective"] == data["bound"] == 2 * WORD_WEIGHT + 13
    assert data["optimal_solutions"] == [["bechfag", "gjdkil"]] and data["n_optimal"] == 1
    assert data["wall_time"] >= 0 and data["playable_words"] == 5


def test_cli_counts_and_list(tiny_dict: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        ["letterboxed", "abc", "def", "ghi", "jkl", "--dict", str(tiny_dict), *COUNT_ARGS],
        capsys,
    )
    data = json.loads(out)
    assert code == 0
    assert data["counts"] == {"1": 0, "2": 1, "3": 1} and data["count_total"] == 2
    assert data["solutions"] == [["bechfag", "gjdkil"], ["bead", "dhl", "lcfgjik"]]
    words = tiny_dict.read_text().split()
    assert len(list(brute_chains(BOX, words, 3))) == 2


def test_cli_methods_agree(tiny_dict: Path, capsys: pytest.CaptureFixture[str]) -> None:
    objectives = {}
    for method in ("dp", "cpsat", "seed-first"):
        code, out, _ = _run(
            ["letterboxed", "abc-def-ghi-jkl", "--dict", str(tiny_dict), "--json", "-m", method],
            capsys,
        )
        data = json.loads(out)
        assert code == 0 and is_valid_letterboxed(BOX, data["solution"])
        objectives[method] = data["objective"]
    assert objectives["dp"] == objectives["cpsat"] <= objectives["seed-first"]


def test_cli_human_output(tiny_dict: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["letterboxed", "abc-def-ghi-jkl", "--dict", str(tiny_dict)], capsys)
    assert code == 0 and "BECHFAG-GJDKIL" in out and "proven fewest" in out


def test_cli_check(capsys: pytest.CaptureFixture[str]) -> None:
    box = ["lua-sgc-yhk-zop"]
    _code, out, _ = _run(["letterboxed", *box, "--json"], capsys)  # the default dictionary's
    answer = " ".join(json.loads(out)["solution"])
    code, out, _ = _run(["letterboxed", *box, "--check-text", answer.upper()], capsys)
    assert code == 0 and out.startswith("valid")
    code, out, _ = _run(["letterboxed", *box, "--check-text", "psychology zap", "--json"], capsys)
    data = json.loads(out)
    assert code == 1 and data["valid"] is False and data["problems"]
    # Issue 23, item 12: without --dict no word was looked up, so a non-word passed; the
    # default dictionary is used, as by the solver and grid --check-text.
    code, out, _ = _run(["letterboxed", *box, "--check-text", "PSYCHOLOGY YUKAZ"], capsys)
    assert code == 1 and out.startswith("invalid") and "yukaz" in out


def test_cli_no_solution_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "d.txt"
    p.write_text("bead\nfig\n")
    code, out, err = _run(["letterboxed", "abc-def-ghi-jkl", "--dict", str(p)], capsys)
    assert code == 1 and "none" in out and not err


@pytest.mark.parametrize(
    "argv",
    [
        ["abc-def-ghi"],
        ["abc-def-ghi-jk"],
        ["abc", "def", "ghi"],
        ["abc-dea-ghi-jkl"],
        ["ab1-def-ghi-jkl"],
        [],
        ["abc-def-ghi-jkl", "--max-words", "0"],
        ["abc-def-ghi-jkl", "--dict", "/nonexistent/words.txt"],
        ["abc-def-ghi-jkl", "--list"],
    ],
)
def test_cli_bad_arguments(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["letterboxed", *argv], capsys)
    assert code == 2 and not out
    assert err.startswith("cpwords: error: ") and err.count("\n") == 1


@pytest.mark.parametrize("path", sorted(BAD.glob("letterboxed_*")), ids=lambda p: p.stem)
def test_cli_bad_lexicon_files(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["letterboxed", "abc-def-ghi-jkl", "--dict", str(path)], capsys)
    assert code == 2 and not out
    assert err.startswith("cpwords: error: ") and err.count("\n") == 1


# ----------------------------------------------------------------------------- any alphabet

#: Greek and Cyrillic letters (with ё, й and ς: letters of their own, not a-z plus marks).
NON_LATIN = "αβγδεζηθικλμνξοπρσςτυφχψωабвгдеёжзийклмнопрстуфхцчшщъыьэюя"


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_cases(NON_LATIN))
def test_exact_matches_brute_force_beyond_latin(case: tuple[LetterBox, list[str]]) -> None:
    box, words = case
    brute = list(brute_chains(box, words, 3))
    result = solve_letterboxed(box, words, all_solutions=True)
    count = count_letterboxed(box, words, max_words=3, list_limit=None)
    assert count.by_words == tuple(sum(len(c) == j for c in brute) for j in (1, 2, 3))
    one, two = brute_force_short_solutions(box, words)
    assert (len(one), len(two)) == count.by_words[:2]
    if brute:
        best = min(score(c) for c in brute)
        assert result.status is Status.OPTIMAL
        assert (result.solver_info["words"], result.solver_info["letters"]) == best
    else:
        assert result.status is Status.INFEASIBLE or result.solver_info["words"] > 3


def test_nfc_and_nfd_are_the_same_box_and_words() -> None:
    import unicodedata

    box, words = "éra-tlo-sni-cuè", ["léon", "nautic", "crès", "ciel", "lac"]
    nfd = unicodedata.normalize("NFD", box)
    assert nfd != box and parse_box(nfd) == parse_box(box)
    a = solve_letterboxed(box, words)
    b = solve_letterboxed(nfd, [unicodedata.normalize("NFD", w) for w in words])
    assert a.status is Status.OPTIMAL and (a.solution, a.objective) == (b.solution, b.objective)
    assert a.solution == ["léon", "nautic", "crès"]


def test_turkish_case_and_sharp_s() -> None:
    # Turkish: I is dotless ı and İ is i, two letters of their own
    assert parse_box("IİA-BCD-EFG-HJK", lang="tr").sides[0] == "ıia"
    with pytest.raises(InputError, match="has 4 letter"):
        parse_box("IİA-BCD-EFG-HJK")  # elsewhere I is i, and İ is i + a combining dot
    # German ß is one letter (not ss), upper-case ẞ lower-cases to it
    box = parse_box("SRE-TAU-ẞHK-LON")
    assert box.side_of["ß"] == 2 and box.n == 12
    solver = LetterBoxedSolver(["STRAẞE", "strasse", "elkohnu"])
    assert solver.playable_words(box) == ["elkohnu", "straße"]
    assert solver.solve(box).solution == ["straße", "elkohnu"]


def test_fold_accents_is_the_players_choice() -> None:
    words = ["café", "élan", "nacre"]
    # without folding, é and e are two letters: café is not playable in a box with e
    plain = LetterBoxedSolver(words)
    assert plain.playable_words("cfx-aln-erq-zwy") == []
    assert plain.playable_words("cfx-aln-érq-zwy") == ["café"]
    # folded, the lexicon and the box meet
    from cpwords.core.lexicon import lexicon_from_words

    folded = LetterBoxedSolver(lexicon_from_words(words, alphabet="any", fold=True))
    box = parse_box("CFX-ALN-ÉRQ-ZWY", fold=True)
    assert box.sides[2] == "erq" and folded.playable_words(box) == ["cafe"]
    assert split_solution("CAFÉ-ÉLAN", fold=True) == ["cafe", "elan"]


def test_generator_draws_the_lexicons_letters() -> None:
    from cpwords.letterboxed.models.design import (
        LETTER_FREQUENCIES,
        draw_weights,
        generate_boxes,
    )

    words = ["абвгд", "двежз", "зийкл", "лмноп", "прсту", "уфхцч", "чшщэю", "юяабв"]
    solver = LetterBoxedSolver(words)
    weights = draw_weights(solver, "ru")
    assert set(weights) == set("".join(words)) and abs(sum(weights.values()) - 1) < 1e-9
    assert weights["а"] == 2 / 40  # а is 2 of the 40 letters
    assert draw_weights(LetterBoxedSolver(["abcdefghijklm"])) is LETTER_FREQUENCIES
    gen = generate_boxes(1, solver, seed=1, max_draws=5, lang="ru", min_zipf=0)
    assert gen.draws == 5 and gen.rejected["few_playable"] + gen.rejected["repeat"] == 5


def test_cli_lang_and_bad_letters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "fr.txt"
    p.write_text("léon\nnautic\ncrès\n", encoding="utf-8")
    code, out, _ = _run(["letterboxed", "ÉRA-TLO-SNI-CUÈ", "--dict", str(p), "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["solution"] == ["léon", "nautic", "crès"]
    assert data["lang"] == "en" and data["fold_accents"] is False
    for argv, needle in [
        (["abc-def-ghi-jkж", "--dict", str(p)], "'ж' (CYRILLIC) is in no word of"),
        (["abc-def-ghi-jkl", "--lang", "xx"], "--lang 'xx' is not a language code"),
        (["éra-tlo-sni-cuè", "--dict", str(p), "--fold-accents"], "appears on sides 1 and 4"),
    ]:
        code, out, err = _run(["letterboxed", *argv], capsys)
        assert code == 2 and not out and needle in err and err.count("\n") == 1


def test_lang_help_lists_the_known_languages() -> None:
    import click

    from cpwords.cli._common import lang_options
    from cpwords.core.lexicon import known_languages

    @click.command()
    @lang_options("x")
    def f(lang: str, fold_accents: bool) -> None: ...

    helptext = next(p.help for p in f.params if p.name == "lang") or ""
    assert "cpwords has a list of: " + " ".join(known_languages()) + " (others" in helptext


@pytest.mark.slow
@needs_dictionary("fr")
def test_generated_boxes_of_other_shapes_are_proven_and_recounted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from cpwords.letterboxed.models.design import generate_boxes
    from cpwords.letterboxed.models.dp import default_lexicon

    gen = generate_boxes(2, default_lexicon("fr"), unique=True, shape=(3, 4), lang="fr")
    assert len(gen.boxes) == 2 and gen.settings["shape"] == "3x4"
    for b in gen.boxes:
        assert b.box.shape == (4, 4, 4) and b.verified and b.counts[:2] == (0, 1)
        one, two = brute_force_short_solutions(b.box, default_lexicon("fr").words)
        assert (one, two) == ([], [b.solution])
    for shape in ("4", "1x5", "5x4", "axb"):
        code, out, err = _run(["letterboxed", "--generate", "1", "--shape", shape], capsys)
        assert code == 2 and not out and "--shape" in err and err.count("\n") == 1
    code, out, err = _run(["letterboxed", "abc-def-ghi-jkl", "--shape", "3x4"], capsys)
    assert code == 2 and "3 sides of 4 letters" in err


def test_default_and_whole_lexicons_are_one_cached_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """default_lexicon and whole_lexicon are builtin_lexicon with and without the size cut:
    English asks its dictionary for 100,000 words or all; a curated language its dictionary
    for 100,000 or all; a wordfreq language keeps its 100,000 entries even when whole."""
    from cpwords.core import dictionaries, languages
    from cpwords.core.lexicon import WHOLE_LIST, lexicon_from_words
    from cpwords.letterboxed.models import dp

    asked: list[tuple[str, int | None]] = []

    def english(n: int | None, proper: bool) -> tuple[list[str], str]:
        asked.append(("en", n))
        return ["able", "bale"][: n or 2], f"fake top {n}"

    def language(lang: str, n: int, fold: bool, proper: bool) -> object:
        asked.append((lang, n))
        return lexicon_from_words(["able"], f"{lang} {n}")

    monkeypatch.setattr(dictionaries, "english_common_words", english)
    monkeypatch.setattr(dp, "language_lexicon", language)
    monkeypatch.setattr(languages, "curated_language", lambda lang: lang == "fr")
    dp.builtin_lexicon.cache_clear()
    try:
        assert dp.default_lexicon().source == "fake top 100000"
        assert dp.whole_lexicon().source == "fake top None"
        assert dp.default_lexicon() is dp.builtin_lexicon("en", False, False, 100_000)  # cached
        assert dp.whole_lexicon("fr").source == f"fr {WHOLE_LIST}"
        assert dp.whole_lexicon("ja") is dp.default_lexicon("ja")
        assert dp.whole_lexicon("en", fold=True).source == "fake top None, accents folded"
        assert asked == [
            ("en", dp.DEFAULT_LEXICON_SIZE),
            ("en", None),
            ("fr", WHOLE_LIST),
            ("ja", dp.DEFAULT_LEXICON_SIZE),
            ("en", None),
        ]
    finally:
        dp.builtin_lexicon.cache_clear()
