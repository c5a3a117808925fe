"""The Letter Boxed renderer: the SVG parsed, its path segments counted against the solution."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from cpwords.cli import cli
from cpwords.core.errors import InputError
from cpwords.letterboxed.draw import box_svg, letter_positions
from cpwords.letterboxed.rules import parse_box
from tests.pictures import assert_png_of_svg, needs_cairo

NS = {"svg": "http://www.w3.org/2000/svg"}
BOX = parse_box("abc-def-ghi-jkl")
WORDS = ["bechfag", "gjdkil", "bead", "dhl", "lcfgjik", "cab"]


def segments(d: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The straight segments of an ``M x y L x y ...`` path."""
    pts = [(float(x), float(y)) for x, y in re.findall(r"[ML] (\S+) (\S+)", d)]
    assert d.startswith("M ") and d.count("M") == 1
    return list(itertools.pairwise(pts))


def test_one_path_per_word_one_segment_per_letter_pair() -> None:
    chain = ["bechfag", "gjdkil"]
    root = ET.fromstring(box_svg(BOX, chain))
    paths = root.findall(".//svg:path[@class='word']", NS)
    assert [p.get("data-word") for p in paths] == chain
    pos = letter_positions(BOX)
    for p, w in zip(paths, chain, strict=True):
        segs = segments(p.get("d", ""))
        assert len(segs) == len(w) - 1
        # Each segment runs from one letter of the word to the next.
        assert [a for a, _ in segs] == [pos[ch] for ch in w[:-1]]
        assert [b for _, b in segs] == [pos[ch] for ch in w[1:]]
    # Consecutive words meet: the next word starts where the previous one ends.
    assert segments(paths[1].get("d", ""))[0][0] == segments(paths[0].get("d", ""))[-1][1]


def test_letters_drawn_once_each_and_outside_the_box() -> None:
    root = ET.fromstring(box_svg(BOX))
    labels = [t.text or "" for t in root.findall(".//svg:text[@class='letter']", NS)]
    assert sorted(labels) == sorted("ABCDEFGHIJKL")
    assert root.findall(".//svg:path", NS) == []
    # Side 1 on top, in order: its letters share one y and increase in x.
    pos = letter_positions(BOX)
    assert pos["a"][1] == pos["b"][1] == pos["c"][1] < pos["e"][1]
    assert pos["a"][0] < pos["b"][0] < pos["c"][0]


def test_hint_mode_draws_the_first_words_only() -> None:
    chain = ["bechfag", "gjdkil"]
    for k in (0, 1, 2, 5):
        root = ET.fromstring(box_svg(BOX, chain, reveal=k))
        assert len(root.findall(".//svg:path[@class='word']", NS)) == min(k, 2)
        assert root.get("data-words") == str(min(k, 2))


@pytest.mark.parametrize("box", ["ab-cd-ef", "abcd-efgh-ijkl-mnop", "abc-def-ghi-jkl-mno"])
def test_other_shapes_are_regular_polygons(box: str) -> None:
    b = parse_box(box, shape=None)
    root = ET.fromstring(box_svg(b))
    poly = root.find(".//svg:polygon", NS)
    assert poly is not None and len(poly.get("points", "").split()) == len(b.sides)
    assert len(set(letter_positions(b).values())) == b.n


def test_a_word_off_the_box_is_refused() -> None:
    with pytest.raises(ValueError, match="not in the box"):
        box_svg(BOX, ["xyz"])


@needs_cairo
def test_cli_svg_writes_the_drawing_and_never_overwrites(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n")
    out, png = tmp_path / "box.svg", tmp_path / "box.png"
    args = ["letterboxed", "abc-def-ghi-jkl", "--dict", str(words), "--svg", str(out)]
    res = CliRunner().invoke(cli, [*args, "--png", str(png)])
    assert res.exit_code == 0, res.output
    assert_png_of_svg(png, out)
    root = ET.fromstring(out.read_text())
    assert [p.get("data-word") for p in root.findall(".//svg:path", NS)] == ["bechfag", "gjdkil"]
    out.write_text("mine")
    res = CliRunner().invoke(cli, args)
    assert isinstance(res.exception, InputError) and "add --force" in str(res.exception)
    assert out.read_text() == "mine"
    res = CliRunner().invoke(cli, [*args, "--force"])
    assert res.exit_code == 0 and out.read_text().startswith("<svg")
