"""The grid renderer: the SVG parsed, slots and edges counted against the board and the fill."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from cpwords.cli import cli
from cpwords.core.errors import InputError
from cpwords.grid.draw import grid_svg, problem_marks, slot_positions
from cpwords.grid.fill_spec import solve_grid
from cpwords.grid.rules import (
    Board,
    board_words,
    common_tokens,
    default_board,
    grid_problems,
)
from tests.conftest import grid_example
from tests.pictures import assert_png_of_svg, needs_cairo

NS = {"svg": "http://www.w3.org/2000/svg"}
BOARD = default_board()


@pytest.fixture(scope="module")
def solved() -> tuple[dict[str, str], tuple[str, ...]]:
    tokens = common_tokens(5000)
    # A puzzle's suffixes, completed (an empty board's first fill took 25-45 s; this, well
    # under a second).
    suffixes = dict(pair.split("=") for pair in grid_example(5000)[1].split(","))
    res = solve_grid(BOARD, tokens, suffixes, time_limit=120, workers=1)
    assert res.verified and res.solution is not None
    return dict(res.solution), tokens.words


def parse(svg: str) -> tuple[list[ET.Element], list[ET.Element]]:
    root = ET.fromstring(svg)
    slots = [g for g in root.findall(".//svg:g", NS) if g.get("class", "").startswith("slot ")]
    return slots, root.findall(".//svg:line", NS)


@pytest.mark.slow
def test_a_solved_board_draws_every_slot_and_word(
    solved: tuple[dict[str, str], tuple[str, ...]],
) -> None:
    fill, _words = solved
    slots, edges = parse(grid_svg(BOARD, fill))
    assert len(slots) == len(BOARD.slots) == 13 and len(edges) == len(BOARD.edges) == 24
    assert {g.get("data-slot"): g.get("data-token") for g in slots} == fill
    kinds = BOARD.kinds
    assert all(g.get("class") == f"slot {kinds[g.get('data-slot', '')]}" for g in slots)
    assert [e.get("data-word") for e in edges] == board_words(BOARD, fill)
    assert all(e.get("class") == "edge" for e in edges)
    # Each edge runs between its two slots' centres.
    pos = slot_positions(BOARD)
    for e in edges:
        p, s = e.get("data-prefix", ""), e.get("data-suffix", "")
        assert (float(e.get("x1", 0)), float(e.get("y1", 0))) == pos[p]
        assert (float(e.get("x2", 0)), float(e.get("y2", 0))) == pos[s]


@pytest.mark.slow
def test_tampered_board_marks_what_the_checker_refuses(
    solved: tuple[dict[str, str], tuple[str, ...]],
) -> None:
    fill, words = solved
    bad = dict(fill, c=fill["n"])  # the centre's token put on a second slot
    problems = grid_problems(BOARD, bad, words)
    bad_edges, bad_slots = problem_marks(BOARD, bad, set(words), 2, 2)
    assert bad_slots == {"c", "n"} and any("is on 2 slots" in p for p in problems)
    # Every edge word the checker calls "not a word" (or "appears 2 times") is marked, no other.
    named = {w for p in problems for w in p.split() if w in board_words(BOARD, bad)}
    marked = {bad[p] + bad[s] for p, s in bad_edges}
    assert marked == named and marked
    _, edges = parse(grid_svg(BOARD, bad, bad_edges=bad_edges, bad_slots=bad_slots))
    assert sum(e.get("class") == "edge bad" for e in edges) == len(bad_edges)


def test_partial_and_layoutless_boards() -> None:
    slots, edges = parse(grid_svg(BOARD, {"s1": "er"}))
    assert sum(g.get("data-token") is not None for g in slots) == 1
    assert not any(e.get("data-word") for e in edges)
    tiny = Board("tiny", ("s",), ("p", "q"), (("p", "s"), ("q", "s")))
    slots, edges = parse(grid_svg(tiny, {"p": "hel", "s": "lo"}))
    assert len(slots) == 3 and [e.get("data-word") for e in edges] == ["hello", None]
    with pytest.raises(ValueError, match="no slot 'x'"):
        grid_svg(tiny, {"x": "ab"})
    with pytest.raises(ValueError, match="no edge"):
        grid_svg(tiny, {}, bad_edges=[("q", "p")])


@pytest.mark.slow
def test_cli_check_svg_marks_the_wrong_words(
    solved: tuple[dict[str, str], tuple[str, ...]], tmp_path: Path
) -> None:
    fill, _ = solved
    text = ",".join(f"{k}={v}" for k, v in dict(fill, c="zz").items())
    out = tmp_path / "grid.svg"
    res = CliRunner().invoke(cli, ["grid", "--check-text", text, "--svg", str(out)])
    assert res.exit_code == 1 and "INVALID" in res.output
    _, edges = parse(out.read_text())
    bad = [e.get("data-word") for e in edges if e.get("class") == "edge bad"]
    assert bad and all(w is not None and w.startswith("zz") for w in bad)
    assert len(bad) == res.output.count("is not a word of the lexicon")
    res = CliRunner().invoke(cli, ["grid", "--check-text", text, "--svg", str(out)])
    assert isinstance(res.exception, InputError) and "add --force" in str(res.exception)


@needs_cairo
def test_cli_check_svg_of_a_fill_naming_a_slot_the_board_lacks(tmp_path: Path) -> None:
    """The check reports the unknown slot (exit 1); the drawing shows the board, no traceback."""
    out, png = tmp_path / "grid.svg", tmp_path / "grid.png"
    args = ["grid", "--check-text", "a=abcde", "--svg", str(out), "--png", str(png)]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 1 and "unknown slot 'a'" in res.output
    assert_png_of_svg(png, out)
    slots, edges = parse(out.read_text())
    assert len(slots) == len(BOARD.slots) and len(edges) == len(BOARD.edges)
    assert all(g.get("data-token") in (None, "") for g in slots)
