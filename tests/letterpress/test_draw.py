"""The Letterpress renderer: the SVG parsed, the move's tiles and segments counted."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

import cpwords
from cpwords.cli import cli
from cpwords.core.errors import InputError
from cpwords.letterpress.draw import bag_svg, board_svg, move_path, spell_tiles
from cpwords.letterpress.rules import OPPONENT, defended, parse_board, play

NS = {"svg": "http://www.w3.org/2000/svg"}
LETTERS = "ovrkqlwislrecrtgmvpfprzey"
COLOURS = "bb...b..r.....r...r.....r"
WORDS = ["over", "overs", "slier", "prove", "proves", "viper", "vipers", "lover", "grove"]
OWNER = {"me": 1, "neutral": 0, "opponent": -1}


def points(d: str) -> list[tuple[float, float]]:
    assert d.startswith("M ") and d.count("M") == 1
    return [(float(x), float(y)) for x, y in re.findall(r"[ML] (\S+) (\S+)", d)]


def tile_centre(root: ET.Element, t: int) -> tuple[float, float]:
    rect = root.find(f".//svg:rect[@class='tile'][@data-index='{t}']", NS)
    assert rect is not None
    size = float(rect.get("width", "0"))
    return (float(rect.get("x", "0")) + size / 2, float(rect.get("y", "0")) + size / 2)


def test_the_best_move_drawn_tile_by_tile() -> None:
    board = parse_board(LETTERS, COLOURS)
    res = cpwords.best_letterpress_move(board, WORDS, time_limit=20)
    move = res.solution
    assert res.verified and move is not None
    root = ET.fromstring(board_svg(board, move.tiles, word=move.word))
    tiles = root.findall(".//svg:rect[@class='tile']", NS)
    assert len(tiles) == 25
    assert [OWNER[r.get("data-owner", "")] for r in tiles] == list(board.owners)
    shield = defended(board.owners, board)
    assert [r.get("data-defended") == "1" for r in tiles] == shield
    letters = root.findall(".//svg:text[@class='letter']", NS)
    assert "".join(t.text or "" for t in letters) == LETTERS.upper()
    used = [int(r.get("data-index", "-1")) for r in root.findall(".//svg:rect[@class='used']", NS)]
    assert used == list(move.tiles) and len(used) == len(move.word)
    assert "".join(LETTERS[t] for t in used) == move.word
    (path,) = root.findall(".//svg:path[@class='move']", NS)
    pts = points(path.get("d", ""))
    assert len(pts) - 1 == len(move.word) - 1  # one segment per pair of consecutive letters
    assert pts == [tile_centre(root, t) for t in move.tiles]
    order = root.findall(".//svg:text[@class='order']", NS)
    assert [int(t.text or 0) for t in order] == list(range(1, len(move.word) + 1))


def test_after_the_move_the_tiles_are_the_rules_owners() -> None:
    board = parse_board(LETTERS, COLOURS)
    tiles = spell_tiles("prove", LETTERS)
    root = ET.fromstring(board_svg(board, tiles, after=True))
    owners = [
        OWNER[r.get("data-owner", "")] for r in root.findall(".//svg:rect[@class='tile']", NS)
    ]
    assert owners == list(play(board, tiles)) != list(board.owners)
    # A defended opponent's tile stays the opponent's.
    board2 = parse_board("a" * 25, "rr.../r..../...../...../.....")
    root = ET.fromstring(board_svg(board2, [0, 1, 2], after=True))
    assert root.find(".//svg:rect[@data-index='0']", NS).get("data-owner") == "opponent"  # type: ignore[union-attr]
    assert OPPONENT == -1


@pytest.mark.parametrize("word", ["tact", "coats", "a", "stoat"])
def test_spell_tiles_against_brute_force(word: str) -> None:
    bag = "tacostx"
    tiles = spell_tiles(word, bag)
    assert len(set(tiles)) == len(word) and "".join(bag[t] for t in tiles) == word
    # Brute force: some injective choice of tiles exists exactly when the drawing found one.
    assert any(
        "".join(bag[t] for t in perm) == word
        for perm in itertools.permutations(range(7), len(word))
    )
    root = ET.fromstring(bag_svg(bag, word))
    assert len(root.findall(".//svg:rect[@class='tile']", NS)) == 7
    assert len(root.findall(".//svg:rect[@class='used']", NS)) == len(word)


def test_bad_moves_are_refused() -> None:
    board = parse_board(LETTERS, COLOURS)
    with pytest.raises(ValueError, match="cannot spell"):
        spell_tiles("zoo", LETTERS)
    with pytest.raises(ValueError, match="spell 'ov'"):
        board_svg(board, [0, 1], word="or")
    with pytest.raises(ValueError, match="twice"):
        board_svg(board, [0, 0])
    with pytest.raises(ValueError, match="off the board"):
        board_svg(board, [25])
    assert move_path([0, 24]).count(" L ") == 1


def test_cli_svg_both_modes_and_never_overwrites(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n")
    out = tmp_path / "move.svg"
    args = ["letterpress", LETTERS, "--board", COLOURS, "--dict", str(words), "--no-cache",
            "--svg", str(out)]  # fmt: skip
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    path = ET.fromstring(out.read_text()).find(".//svg:path[@class='move']", NS)
    assert path is not None
    word = ET.fromstring(out.read_text()).get("data-word", "")
    assert word.upper() in res.output and len(points(path.get("d", ""))) == len(word)
    out.write_text("mine")
    res = CliRunner().invoke(cli, args)
    assert isinstance(res.exception, InputError) and "add --force" in str(res.exception)
    assert out.read_text() == "mine"
    bag = tmp_path / "bag.svg"
    res = CliRunner().invoke(cli, ["letterpress", "provesx", "--dict", str(words), "--no-cache",
                                   "--svg", str(bag)])  # fmt: skip
    assert res.exit_code == 0, res.output
    root = ET.fromstring(bag.read_text())
    assert root.get("data-word") == "proves"  # the longest word the bag spells
    assert len(root.findall(".//svg:rect[@class='used']", NS)) == 6
