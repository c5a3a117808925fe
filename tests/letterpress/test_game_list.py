"""Issue 47: `cpwords letterpress` plays the game's own words by default (the Letterpress list,
CC0, shipped with cpwords): every word it lists and every move it finds is the game's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpwords.core.wordlists import packaged_lexicon
from cpwords.letterpress.rules import (
    can_spell,
    letterpress_move_problems,
    parse_board,
    spellable_count,
)
from tests.conftest import run_cli

#: The README's 25 letters, and the guide's board (row by row) and its colours.
LETTERS = "ovrkqlwislrecrtgmvpfprzey"
BOARD = ("ovrkq/lwisl/recrt/gmvpf/przey", "bbr../b.rr./...../.r.../....b")


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def game() -> frozenset[str]:
    return packaged_lexicon("letterpress").as_set()


@pytest.mark.slow
def test_every_word_listed_on_the_readmes_letters_is_the_games(
    game: frozenset[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(["letterpress", LETTERS, "--json"], capsys)
    assert code == 0, err
    row = json.loads(out)
    assert row["lexicon"] == "letterpress" and row["lexicon_size"] == len(game) == 274_926
    words = row["solution"]
    assert len(words) == row["count"] == spellable_count(game, LETTERS)  # a plain recount
    assert set(words) <= game and all(can_spell(w, LETTERS) for w in words)
    # Webster's 2nd's longest word here is not a word of the game; the game's own is listed.
    assert "slipperflower" not in words and "silverworker" not in words
    assert "powerlifters" in words and max(map(len, words)) == 13


@pytest.mark.slow
def test_the_guides_best_move_is_a_word_of_the_game(
    game: frozenset[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The guide's board: SILVERWORKER (web2's) is not in the game's list; POWERLIFTERS is,
    with the same swing, proven."""
    code, out, err = run_cli(["letterpress", BOARD[0], "--board", BOARD[1], "--json"], capsys)
    assert code == 0, err
    row = json.loads(out)
    assert row["status"] == "OPTIMAL" and row["lexicon"] == "letterpress"
    move = row["solution"]
    assert row["word"] == move["word"] == "powerlifters" and move["word"] in game
    assert move["swing"] == 14 and row["objective"] >= 14
    board = parse_board(*BOARD)
    assert letterpress_move_problems(board, move["word"], move["tiles"], game) == []
