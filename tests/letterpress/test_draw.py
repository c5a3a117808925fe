"""The Letterpress renderer: the SVG parsed, the move's tiles ringed and numbered, no path."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

import cpwords
from cpwords.cli import cli
from cpwords.core.errors import InputError
from cpwords.letterpress.draw import bag_svg, board_svg, spell_tiles
from cpwords.letterpress.rules import OPPONENT, defended, parse_board, play
from tests.pictures import assert_png_of_svg, needs_cairo

NS = {"svg": "http://www.w3.org/2000/svg"}
LETTERS = "ovrkqlwislrecrtgmvpfprzey"
COLOURS = "bb...b..r.....r...r.....r"
WORDS = ["over", "overs", "slier", "prove", "proves", "viper", "vipers", "lover", "grove"]
OWNER = {"me": 1, "neutral": 0, "opponent": -1}


def inside(root: ET.Element, t: int, x: float, y: float) -> bool:
    """Whether (x, y) is inside tile ``t``'s square."""
    rect = root.find(f".//svg:rect[@class='tile'][@data-index='{t}']", NS)
    assert rect is not None
    x0, y0, size = (float(rect.get(k, "0")) for k in ("x", "y", "width"))
    return x0 <= x <= x0 + size and y0 <= y <= y0 + size


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
    assert root.find(".//svg:path", NS) is None and root.find(".//svg:line", NS) is None
    order = root.findall(".//svg:text[@class='order']", NS)
    assert [int(t.text or 0) for t in order] == list(range(1, len(move.word) + 1))
    # Each number stands on its own tile.
    for t, mark in zip(move.tiles, order, strict=True):
        assert inside(root, t, float(mark.get("x", "-1")), float(mark.get("y", "-1")))
    lines = [t.text or "" for t in root.findall(".//svg:text[@class='caption-line']", NS)]
    assert any(move.word.upper() in line for line in lines)
    assert any(LETTERS[:5].upper() in line for line in lines)


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


@needs_cairo
def test_cli_svg_both_modes_and_never_overwrites(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n")
    out = tmp_path / "move.svg"
    args = [
        "letterpress",
        LETTERS,
        "--board",
        COLOURS,
        "--dict",
        str(words),
        "--no-cache",
        "--svg",
        str(out),
    ]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    root = ET.fromstring(out.read_text())
    word = root.get("data-word", "")
    assert word.upper() in res.output
    assert len(root.findall(".//svg:text[@class='order']", NS)) == len(word) > 0
    out.write_text("mine")
    res = CliRunner().invoke(cli, args)
    assert isinstance(res.exception, InputError) and "add --force" in str(res.exception)
    assert out.read_text() == "mine"
    bag, png = tmp_path / "bag.svg", tmp_path / "bag.png"
    res = CliRunner().invoke(
        cli,
        [
            "letterpress",
            "provesx",
            "--dict",
            str(words),
            "--no-cache",
            "--svg",
            str(bag),
            "--png",
            str(png),
        ],
    )
    assert res.exit_code == 0, res.output
    assert_png_of_svg(png, bag)
    root = ET.fromstring(bag.read_text())
    assert root.get("data-word") == "proves"  # the longest word the bag spells
    assert len(root.findall(".//svg:rect[@class='used']", NS)) == 6
