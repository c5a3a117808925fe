"""One ply ahead (--lookahead 1): the move maximising its swing minus the opponent's best reply.

Checked against a brute force that tries every word on every choice of tiles, then every reply
on every choice of tiles, with the rules' own functions (never against hard-coded answers).
"""

from __future__ import annotations

import functools
import itertools
import json
import random
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from cpwords.core.result import Status
from cpwords.letterpress.board_spec import lookahead_letterpress_move
from cpwords.letterpress.models.index import build_letterpress_index
from cpwords.letterpress.models.lookahead import lookahead_move
from cpwords.letterpress.rules import NEUTRAL, LetterpressBoard, move_scores, play
from tests.conftest import run_cli

WORDS = [
    "cat",
    "cats",
    "act",
    "acts",
    "tac",
    "taco",
    "tacos",
    "coat",
    "coats",
    "oat",
    "oats",
    "sat",
    "sea",
    "seat",
    "east",
    "eat",
    "eats",
    "tea",
    "teas",
    "set",
    "toe",
    "toes",
    "stoa",
    "ascot",
    "cast",
    "case",
    "aces",
    "ace",
    "cote",
    "cotes",
    "scat",
    "scot",
]


def _spellings(board: LetterpressBoard, word: str) -> Iterator[tuple[int, ...]]:
    """Every sequence of distinct tiles spelling ``word``."""
    options = [[t for t, ch in enumerate(board.letters) if ch == c] for c in word]
    for tiles in itertools.product(*options):
        if len(set(tiles)) == len(tiles):
            yield tiles


def _playable(words: Sequence[str], played: Sequence[str]) -> list[str]:
    return [w for w in words if not any(p.startswith(w) for p in played)]


def _best_reply(board: LetterpressBoard, tiles: Sequence[int], words: Sequence[str]) -> int:
    return _reply_after(board, play(board, tiles), tuple(words))


@functools.lru_cache(maxsize=4096)
def _reply_after(board: LetterpressBoard, after: tuple[int, ...], words: tuple[str, ...]) -> int:
    if NEUTRAL not in after:
        return 0  # the game is over
    theirs = LetterpressBoard(board.letters, tuple(-o for o in after), board.rows, board.cols)
    swings = [move_scores(theirs, ts)[0] for w in words for ts in _spellings(theirs, w)]
    return max(swings, default=0)


def _brute(
    board: LetterpressBoard, words: Sequence[str], played: Sequence[str] = ()
) -> tuple[int, int, int] | None:
    """The best (value, swing, defence) over every move, by trying them all."""
    best = None
    for w in _playable(words, played):
        replies = _playable(words, [*played, w])
        for tiles in _spellings(board, w):
            swing, defence = move_scores(board, tiles)
            key = (swing - _best_reply(board, tiles, replies), swing, defence)
            best = key if best is None or key > best else best
    return best


def _random_board(rng: random.Random, rows: int, cols: int) -> LetterpressBoard:
    letters = "".join(rng.choice("catose") for _ in range(rows * cols))
    owners = tuple(rng.choice((1, -1, 0, 0)) for _ in range(rows * cols))
    return LetterpressBoard(letters, owners, rows, cols)


@pytest.mark.parametrize("seed", range(10))
def test_agrees_with_the_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    rows, cols = rng.choice(((2, 3), (3, 3), (2, 4)))
    board = _random_board(rng, rows, cols)
    words = rng.sample(WORDS, 14)
    played = rng.sample(words, rng.randint(0, 2))
    want = _brute(board, words, played)
    res = lookahead_letterpress_move(board, words, played)
    if want is None:
        assert res.status is Status.INFEASIBLE and res.solution is None
        return
    move = res.solution
    assert res.status is Status.OPTIMAL and res.verified
    assert (move.net, move.swing, move.defence) == want
    assert res.objective == res.bound == move.net
    # the reply named is the opponent's best on the board the move leaves
    replies = _playable(words, [*played, move.word])
    assert move.reply_swing == _best_reply(board, move.tiles, replies)


def test_a_stopped_search_is_never_optimal_and_its_bound_holds() -> None:
    rng = random.Random(3)
    board = _random_board(rng, 3, 3)
    want = _brute(board, WORDS)
    assert want is not None
    # the model itself (the API gives every search at least 0.05 s): stopped at once
    res = lookahead_move(board, build_letterpress_index(WORDS), time_limit=0.0)
    assert res.status in (Status.FEASIBLE, Status.UNKNOWN)
    assert res.solver_info["stopped"] == "time_limit"
    assert res.bound is not None and res.bound >= want[0]


def test_cli_lookahead_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a 5x5 board whose letters are x but for 9 tiles (a brute force of few spellings)
    rng = random.Random(7)
    small = _random_board(rng, 3, 3)
    letters = small.letters[:3] + "xx" + small.letters[3:6] + "xx" + small.letters[6:] + "x" * 12
    owners = [rng.choice((1, -1, 0)) for _ in range(25)]
    board = LetterpressBoard(letters, tuple(owners))
    colours = "".join({1: "b", -1: "r", 0: "."}[o] for o in board.owners)
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n")
    argv = ["letterpress", board.letters, "--board", colours, "--dict", str(words)]
    code, out, _ = run_cli([*argv, "--lookahead", "1", "--json", "--no-cache"], capsys)
    row = json.loads(out)
    want = _brute(board, WORDS)
    assert want is not None
    sol = row["solution"]
    assert code == 0 and row["status"] == "OPTIMAL" and row["lookahead"] == 1
    assert (sol["net"], sol["swing"], sol["defence"]) == want and row["objective"] == sol["net"]
    code, out, _ = run_cli([*argv, "--lookahead", "1", "--no-cache"], capsys)
    assert code == 0 and "reply" in out and "proven best of all" in out
    code, _, err = run_cli([*argv, "--lookahead", "2"], capsys)
    assert code == 2 and "--lookahead" in err
