"""Grid design: unique puzzles and completion counts, recounted by an independent brute force."""

from __future__ import annotations

import json
import re

import pytest

from cpwords.cli import main
from cpwords.core.errors import InputError
from cpwords.core.lexicon import wordfreq_lexicon
from cpwords.grid.models.design import design_grid_puzzles, fill_search
from cpwords.grid.rules import Board, cut_words, default_board, grid_problems
from cpwords.grid.symmetry import board_symmetry
from tests.conftest import clear_lexicon_caches

BOARD = default_board()
# The 5,000 most common words plus one board known to be unique at N = 20,000: a small lexicon
# that holds both unique and non-unique puzzles.
PLANTED = [
    "boar",
    "bold",
    "boat",
    "bong",
    "wear",
    "weld",
    "cold",
    "coat",
    "cheat",
    "cheng",
    "ling",
    "liar",
    "soar",
    "sold",
    "song",
    "held",
    "hear",
    "heat",
    "goat",
    "gold",
    "gong",
    "feng",
    "feat",
    "fear",
]
WORDS = sorted(set(wordfreq_lexicon(5000)) | set(PLANTED))


def brute_count(board: Board, words: list[str], suffixes: tuple[str, ...]) -> int:
    """Full boards with these suffixes, from the word strings alone: every prefix slot tries
    every prefix that spells a word with each of its suffixes, all prefixes distinct."""
    tokens = cut_words(words, 2, 2)
    wordset = {p + s for p, s in tokens.pairs}
    prefixes = sorted({p for p, _ in tokens.pairs})
    fixed = dict(zip(board.suffix_slots, suffixes, strict=True))
    slots = list(board.prefix_slots)
    allowed = [
        [p for p in prefixes if all(p + fixed[s] in wordset for s in board.neighbours(v))]
        for v in slots
    ]

    def rec(i: int, used: list[str]) -> int:
        if i == len(slots):
            fill = fixed | dict(zip(slots, used, strict=True))
            assert not grid_problems(board, fill, words, 2, 2)
            return 1
        total = 0
        for p in allowed[i]:
            if p not in used:
                total += rec(i + 1, [*used, p])
        return total

    return rec(0, [])


@pytest.fixture(scope="module")
def design():  # type: ignore[no-untyped-def]
    return design_grid_puzzles(BOARD, cut_words(WORDS, 2, 2))


@pytest.mark.slow
def test_unique_puzzles_recounted_by_brute_force(design) -> None:  # type: ignore[no-untyped-def]
    assert design.unique, "the planted board should give a unique puzzle"
    assert ("ar", "ld", "at", "ng") in {p.suffixes for p in design.unique}
    for p in design.puzzles:
        assert brute_count(BOARD, WORDS, p.suffixes) == p.count
        assert p.unique == (p.count == 1)
        assert not grid_problems(BOARD, p.example, WORDS, 2, 2)
    assert any(not p.unique for p in design.puzzles)


def test_difficulty_of_unique_puzzles(design) -> None:  # type: ignore[no-untyped-def]
    for p in design.unique:
        d = p.difficulty
        assert d is not None and d.search_nodes >= len(BOARD.prefix_slots)
        assert min(d.candidates) >= 1 and 0 < d.min_zipf <= d.mean_zipf


def test_count_limit_keeps_the_verdicts(design) -> None:  # type: ignore[no-untyped-def]
    fast = design_grid_puzzles(BOARD, cut_words(WORDS, 2, 2), count_limit=2)
    assert [p.suffixes for p in fast.unique] == [p.suffixes for p in design.unique]
    for a, b in zip(fast.puzzles, design.puzzles, strict=True):
        assert a.count == min(b.count, 2) and a.count_exact == (b.count < 2)
    with pytest.raises(InputError):
        design_grid_puzzles(BOARD, cut_words(WORDS, 2, 2), count_limit=1)


def test_fill_search_counts_distinct_fills() -> None:
    sets = [frozenset("ab"), frozenset("ab"), frozenset("abc")]
    nodes, sols = fill_search(sets)
    assert sols == 2 and nodes >= 3
    assert fill_search([frozenset("a"), frozenset("a")])[1] == 0


def test_kernel_board_counts_up_to_symmetry() -> None:
    # two prefix slots with the same neighbours: |K| = 2, boards come in pairs
    b = Board("twins", ("s", "t"), ("p", "q"), (("p", "s"), ("p", "t"), ("q", "s"), ("q", "t")))
    assert board_symmetry(b).kernel_order == 2
    words = ["bean", "beer", "dean", "deer", "mean", "meer"]
    d = design_grid_puzzles(b, cut_words(words, 2, 2))
    (p,) = d.puzzles
    assert p.count == 6 and p.count_up_to_symmetry == 3 and not p.unique
    d2 = design_grid_puzzles(b, cut_words(words[:4], 2, 2))
    assert d2.puzzles[0].count == 2 and d2.puzzles[0].unique


def test_cli_grid_unique_json(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    lex = tmp_path / "words.txt"
    lex.write_text("\n".join(WORDS) + "\n", "utf-8")
    with pytest.raises(SystemExit) as exc:
        main(["grid", "--unique", "--lexicon", str(lex), "--json"])
    assert exc.value.code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["unique_count"] == len(out["quadruples"]) >= 1
    assert out["classes"] == len(out["quadruples"]) + len(out["others"])
    for q in out["quadruples"]:
        assert brute_count(BOARD, WORDS, tuple(q["suffixes"])) == 1
    assert all(o["count"] >= 2 for o in out["others"])


def test_cli_grid_unique_human_and_none(capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # Webster's 2nd (the English list where wamerican is absent, on every machine): its 5,000
    # most common words admit full boards, none of them unique.
    monkeypatch.setenv("CPWORDS_DICT_DIR", "none")
    clear_lexicon_caches()
    try:
        with pytest.raises(SystemExit) as exc:
            main(["grid", "--unique", "--top", "5000", "--list", "3"])
    finally:
        monkeypatch.undo()
        clear_lexicon_caches()
    assert exc.value.code == 1
    out = capsys.readouterr().out
    assert re.search(r"\b0 of [1-9][0-9]* puzzle classes", out) and "no suffix quadruple" in out


@pytest.mark.parametrize(
    "args",
    [
        ["--unique", "--count", "ar,ld,at,ng"],
        ["--unique", "--all-orientations"],
        ["--count-limit", "5"],
        ["--unique", "--count-limit", "1"],
    ],
)
def test_cli_grid_unique_bad_input(args: list[str], capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as exc:
        main(["grid", "--top", "2000", *args])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("cpwords: error:") and len(err.strip().splitlines()) == 1


def test_doctests() -> None:
    import doctest

    from cpwords.grid.models import design as grid_design

    res = doctest.testmod(grid_design)
    assert res.failed == 0 and res.attempted > 0
