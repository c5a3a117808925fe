"""Letterpress best move: CP-SAT model == brute force over every word and tile choice."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.cli import main
from cpwords.core.errors import InputError
from cpwords.core.result import Status
from cpwords.letterpress.board_spec import best_letterpress_move
from cpwords.letterpress.rules import (
    ME,
    OPPONENT,
    LetterpressBoard,
    can_spell,
    letterpress_move_problems,
    move_scores,
    parse_board,
    play,
)


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path / "cache"))


def brute_force(board: LetterpressBoard, words: list[str]) -> tuple[int, int] | None:
    """Best (swing, defence) over every spellable word and every choice of its tiles."""
    best = None
    for w in set(words):
        if not can_spell(w, board.letters):
            continue
        per_letter = []
        for c, k in Counter(w).items():
            tiles = [t for t, ch in enumerate(board.letters) if ch == c]
            per_letter.append(list(itertools.combinations(tiles, k)))
        for choice in itertools.product(*per_letter):
            used = [t for group in choice for t in group]
            score = move_scores(board, used)
            if best is None or score > best:
                best = score
    return best


boards = st.tuples(
    st.text(alphabet="abcd", min_size=25, max_size=25),
    st.lists(st.sampled_from([1, 0, -1]), min_size=25, max_size=25),
)
small_lexicons = st.lists(
    st.text(alphabet="abcde", min_size=1, max_size=4), min_size=1, max_size=25, unique=True
)


@settings(max_examples=12, deadline=None)
@given(boards, small_lexicons)
def test_model_equals_brute_force(board_data: tuple[str, list[int]], words: list[str]) -> None:
    board = LetterpressBoard(board_data[0], tuple(board_data[1]))
    expect = brute_force(board, words)
    res = best_letterpress_move(board, words)
    if expect is None:
        assert res.status is Status.INFEASIBLE
        return
    assert res.status is Status.OPTIMAL and res.verified
    move = res.solution
    assert (move.swing, move.defence) == expect
    assert res.objective == expect[0]
    assert not letterpress_move_problems(board, move.word, move.tiles, set(words))
    assert move_scores(board, move.tiles) == expect


def test_defended_tiles_are_not_captured() -> None:
    # a (tile 0) is the opponent's and defended (neighbours 1 and 5 are the opponent's);
    # b (tile 1) is the opponent's but undefended (neighbour 2 is neutral); every z is neutral
    board = parse_board("abzzz" + "czzzz" + "z" * 15, "rr.../r..../...../...../.....")
    res = best_letterpress_move(board, ["ab", "z", "a"])
    assert res.solution.word == "ab" and res.solution.swing == 2  # only b changes hands
    assert play(board, res.solution.tiles)[0] == OPPONENT
    assert play(board, res.solution.tiles)[1] == ME


def test_played_words_and_prefixes_are_excluded() -> None:
    board = parse_board("catsz" * 5, "." * 25)
    res = best_letterpress_move(board, ["cat", "cats", "at"], played=["cats"])
    assert res.solution.word == "at"  # 'cats' and its prefix 'cat' are gone
    res = best_letterpress_move(board, ["cats"], played=["cats"])
    assert res.status is Status.INFEASIBLE and res.solution is None


@pytest.mark.parametrize(
    ("letters", "colours"),
    [
        ("abcde" * 5, "b" * 24),  # 24 owners
        ("abcd" * 6, "b" * 25),  # 24 letters
        ("abcd1" * 5, "b" * 25),  # digit
        ("abcde" * 5, "x" * 25),  # unknown colour
    ],
    ids=["short-colours", "short-letters", "digit-letter", "unknown-colour"],
)
def test_bad_boards(letters: str, colours: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(InputError):
        parse_board(letters, colours)
    with pytest.raises(SystemExit) as exc:
        main(["letterpress", letters, "--board", colours])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("cpwords: error:")


def test_cli_board_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "w.txt"
    f.write_text("cat\ncats\nact\nzzz\n")
    with pytest.raises(SystemExit) as exc:
        main(
            [
                "letterpress",
                "catsz/" * 5,
                "--board",
                "rrrrr/" + "...../" * 4,
                "--dict",
                str(f),
                "--json",
            ]
        )
    assert exc.value.code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["word"] == "cats" and out["status"] == "OPTIMAL"
    assert out["solution"]["swing"] == out["objective"]
