"""Issue 47, item 5: ``--puzzle`` makes ``--svg``/``--png`` draw the puzzle to hand out, not its
answer (``grid``: the suffixes alone; ``letterpress``: the board or the bag with no move;
``letterboxed``: the box and its letters), the very picture the page's ``puzzle.svg`` serves."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from cpwords.grid.rules import default_board
from tests.conftest import grid_example, run_cli
from tests.pictures import assert_png_of_svg, needs_cairo

NS = {"svg": "http://www.w3.org/2000/svg"}
#: A Letterpress board and a small list for it (tests/letterpress/test_draw.py's).
LETTERS = "ovrkqlwislrecrtgmvpfprzey"
COLOURS = "bb...b..r.....r...r.....r"
PRESS_WORDS = ["over", "overs", "slier", "prove", "proves", "viper", "vipers", "lover", "grove"]
#: A Letter Boxed box and a small list whose fewest-word answer is BECHFAG-GJDKIL.
BOX = "abc-def-ghi-jkl"
BOX_WORDS = ["bechfag", "gjdkil", "bead", "dhl", "lcfgjik", "cab"]
REFUSED = "cpwords: error: --puzzle draws the picture: give --svg FILE or --png FILE\n"


def exports() -> ModuleType:
    """The pages' puzzle exports (skipped without the web extra)."""
    return pytest.importorskip("cpwords.serve.routes.exports")


def word_file(tmp_path: Path, words: list[str]) -> str:
    path = tmp_path / "words.txt"
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    return str(path)


def texts(svg: str) -> list[str]:
    """Every text of the drawing (slot tokens and names, letters, the caption)."""
    return ["".join(e.itertext()) for e in ET.fromstring(svg).iter(f"{{{NS['svg']}}}text")]


@pytest.mark.parametrize(
    "argv",
    [
        ["grid", "--puzzle"],
        ["grid", "--top", "5000", "--count", "ck,ll,nd,ss", "--puzzle"],
        ["letterpress", "tacos", "--puzzle"],
        ["letterpress", LETTERS, "--board", COLOURS, "--puzzle"],
        ["letterboxed", BOX, "--puzzle"],
        ["letterboxed", "--generate", "1", "--puzzle"],
    ],
)
def test_puzzle_without_a_picture_is_refused(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(argv, capsys)
    assert (code, out, err) == (2, "", REFUSED)


def test_letterboxed_puzzle_is_refused_with_check(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["letterboxed", BOX, "--check-text", "abc", "--puzzle", "--svg", "x.svg"]
    code, out, err = run_cli(argv, capsys)
    assert code == 2 and not out and "drop --check" in err and len(err.splitlines()) == 1


# ---- grid: the suffixes alone ------------------------------------------------------------------


def test_grid_puzzle_of_a_checked_board_is_its_suffixes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = default_board()
    full = dict(pair.split("=") for pair in grid_example()[2].split(","))
    out = tmp_path / "puzzle.svg"
    argv = ["grid", "--top", "5000", "--check-text", grid_example()[2], "--svg", str(out)]
    code, text, _ = run_cli([*argv, "--puzzle"], capsys)
    assert code == 0 and "valid board" in text  # the answer is still printed
    svg = out.read_text(encoding="utf-8")
    root = ET.fromstring(svg)
    placed = {
        g.get("data-slot"): g.get("data-token")
        for g in root.iter(f"{{{NS['svg']}}}g")
        if g.get("data-token") is not None
    }
    assert placed == {v: full[v] for v in board.suffix_slots}
    assert root.get("data-filled") == "4" and "data-word=" not in svg
    assert "find the prefixes" in svg
    prefixes = {full[v] for v in board.prefix_slots}
    drawn = " ".join(texts(svg)).lower()
    # (as drawn text or a placed token: slot names such as "se" and "ne" are attributes too)
    assert not [p for p in prefixes if f"{p}-" in drawn or f'data-token="{p}"' in svg]
    # The page's export of the same suffixes, byte for byte.
    query = {f"t_{v}": full[v] for v in board.suffix_slots}
    assert svg == exports().grid_puzzle(query)
    # Without --puzzle the same command draws the answer: every prefix, every word.
    answer = tmp_path / "answer.svg"
    code, _, _ = run_cli([*argv[:-1], str(answer)], capsys)
    assert code == 0 and answer.read_text(encoding="utf-8").count("data-word=") == 24


@needs_cairo
def test_grid_puzzle_of_a_count_as_svg_and_png(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    quadruple = grid_example()[0]
    board = default_board()
    svg, png = tmp_path / "puzzle.svg", tmp_path / "puzzle.png"
    argv = ["grid", "--top", "5000", "--count", quadruple, "--puzzle"]
    code, _, _ = run_cli([*argv, "--svg", str(svg), "--png", str(png)], capsys)
    assert code == 0
    assert_png_of_svg(png, svg)
    suffixes = dict(zip(board.suffix_slots, quadruple.split(","), strict=True))
    query = {f"t_{v}": t for v, t in suffixes.items()}
    assert svg.read_text(encoding="utf-8") == exports().grid_puzzle(query)
    # The count's example board is printed, not drawn: the suffixes alone.
    assert ET.fromstring(svg.read_text(encoding="utf-8")).get("data-filled") == "4"


# ---- letterpress: no move ----------------------------------------------------------------------


def test_letterpress_board_puzzle_has_no_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "board.svg"
    argv = ["letterpress", LETTERS, "--board", COLOURS, "--dict", word_file(tmp_path, PRESS_WORDS)]
    argv += ["--no-cache", "--workers", "1", "--puzzle", "--svg", str(out), "--json"]
    code, text, _ = run_cli(argv, capsys)
    word = json.loads(text)["word"]
    assert code == 0 and word  # the move is still found and printed
    svg = out.read_text(encoding="utf-8")
    root = ET.fromstring(svg)
    assert root.get("data-word") == "" and svg.count('class="tile"') == 25
    assert 'class="used"' not in svg and 'class="order"' not in svg
    assert word.upper() not in svg and "find the best move" in svg
    letters = [t for t in texts(svg) if len(t) == 1]
    assert "".join(letters) == LETTERS.upper()
    assert svg == exports().letterpress_puzzle({"letters": LETTERS, "colours": COLOURS})


@needs_cairo
def test_letterpress_bag_puzzle_as_svg_and_png(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    svg, png = tmp_path / "bag.svg", tmp_path / "bag.png"
    argv = ["letterpress", "provesx", "--dict", word_file(tmp_path, PRESS_WORDS), "--no-cache"]
    code, _, _ = run_cli([*argv, "--puzzle", "--svg", str(svg), "--png", str(png)], capsys)
    assert code == 0
    assert_png_of_svg(png, svg)
    drawn = svg.read_text(encoding="utf-8")
    assert ET.fromstring(drawn).get("data-word") == "" and 'class="used"' not in drawn
    assert "find the words" in drawn
    assert drawn == exports().letterpress_puzzle({"letters": "provesx"})


# ---- letterboxed: the box, the fewest words ---------------------------------------------------


def test_letterboxed_puzzle_of_a_solved_box(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = word_file(tmp_path, BOX_WORDS)
    out, hinted = tmp_path / "box.svg", tmp_path / "hint.svg"
    argv = ["letterboxed", BOX, "--dict", words, "--puzzle"]
    code, text, _ = run_cli([*argv, "--svg", str(out), "--json"], capsys)
    row = json.loads(text)
    assert code == 0 and row["solution"] == ["bechfag", "gjdkil"]
    svg = out.read_text(encoding="utf-8")
    assert 'class="word"' not in svg and 'data-words="0"' in svg
    assert "solve it in 2 words" in svg
    assert not [w for w in row["solution"] if w in svg.lower()]
    assert svg == exports().letterboxed_puzzle({"box": BOX, "words": "2"})
    # A hint from the start draws the same puzzle.
    code, _, _ = run_cli([*argv, "--hint", "1", "--svg", str(hinted)], capsys)
    assert code == 0 and hinted.read_text(encoding="utf-8") == svg
