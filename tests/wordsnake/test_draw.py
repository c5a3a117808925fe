"""The Wordsnake renderer: words, rows and highlighted overlaps checked in the parsed SVG."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

from cpwords.cli import cli
from cpwords.core.errors import InputError
from cpwords.wordsnake.draw import layout, snake_svg
from cpwords.wordsnake.rules import pair_overlap

NS = {"svg": "http://www.w3.org/2000/svg"}
FIVE = ["run", "nausea", "seasick", "sickle", "lemon"]


def test_one_group_per_word_and_two_rects_per_overlap() -> None:
    root = ET.fromstring(snake_svg(FIVE))
    groups = root.findall(".//svg:g[@class='word']", NS)
    assert [g.get("data-word") for g in groups] == FIVE
    # One <text> per letter, each with one x, in order and inside the picture.
    width = float(root.get("width", "0"))
    for g in groups:
        glyphs = g.findall("svg:text[@class='glyph']", NS)
        assert "".join(t.text or "" for t in glyphs) == g.get("data-word")
        xs = [float(t.get("x", "nan")) for t in glyphs]
        assert all(0 < x < width for x in xs) and xs == sorted(xs) and len(set(xs)) == len(xs)
    rects = root.findall(".//svg:rect", NS)
    overlaps = [r for r in rects if (r.get("class") or "").startswith("overlap")]
    expected = [pair_overlap(a, b) for a, b in itertools.pairwise(FIVE)]
    assert [int(r.get("data-length", 0)) for r in overlaps if "tail" in r.get("class", "")] == [
        k for k in expected if k
    ]
    assert len(overlaps) == 2 * sum(1 for k in expected if k)
    assert root.get("data-score") == str(sum(k * k for k in expected)) == "30"


def test_overlapping_letters_line_up() -> None:
    rows = layout(FIVE)
    for (_, col_a, _), (_, col_b, ov), a in zip(rows, rows[1:], FIVE, strict=False):
        assert col_b == col_a + len(a) - ov  # the shared letters stand in the same columns
    root = ET.fromstring(snake_svg(FIVE))
    tails = root.findall(".//svg:rect[@class='overlap tail']", NS)
    heads = root.findall(".//svg:rect[@class='overlap head']", NS)
    assert [t.get("x") for t in tails] == [h.get("x") for h in heads]
    assert [t.get("data-pair") for t in tails] == [h.get("data-pair") for h in heads]


def test_wide_snakes_wrap_and_long_lists_are_cut() -> None:
    words = [f"{chr(97 + i % 26)}bcdefgh{chr(97 + (i + 1) % 26)}" for i in range(60)]
    rows = layout(words, columns=30)
    assert max(col + len(w) for (_, col, _), w in zip(rows, words, strict=True)) <= 30
    root = ET.fromstring(snake_svg(words, max_words=10))
    assert len(root.findall(".//svg:g[@class='word']", NS)) == 10
    note = root.find(".//svg:text[@class='note']", NS)
    assert note is not None and "50 more words" in (note.text or "")


def test_cyclic_snake_names_the_closing_overlap() -> None:
    svg = snake_svg(["abc", "cab"], cyclic=True)
    assert "back to the first word: overlap 2" in svg


def test_cli_svg(tmp_path: Path) -> None:
    lst = tmp_path / "five.txt"
    lst.write_text("\n".join(FIVE) + "\n")
    out = tmp_path / "snake.svg"
    res = CliRunner().invoke(cli, ["snake", str(lst), "--svg", str(out)])
    assert res.exit_code == 0, res.output
    root = ET.fromstring(out.read_text())
    assert len(root.findall(".//svg:g[@class='word']", NS)) == 5
    res = CliRunner().invoke(cli, ["snake", str(lst), "--svg", str(out)])
    assert isinstance(res.exception, InputError) and "--force" in str(res.exception)
