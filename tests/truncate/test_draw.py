"""The Truncate renderer: the ladder parsed, rungs and added letters counted, columns aligned."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

import cpwords
from cpwords.cli import cli
from cpwords.core.errors import InputError
from cpwords.truncate.draw import ladder_layout, ladder_svg
from tests.pictures import assert_png_of_svg, needs_cairo

NS = {"svg": "http://www.w3.org/2000/svg"}
WORDS = ["a", "la", "lap", "laps", "lapse", "elapse", "elapsed", "relapsed", "clap", "claps"]


def rungs(svg: str) -> list[tuple[str, list[tuple[float, str]], list[str]]]:
    """Per rung: its word, its letters with their x, the classes of its cells."""
    out = []
    for g in ET.fromstring(svg).findall(".//svg:g[@class='rung']", NS):
        letters = [(float(t.get("x", "0")), t.text or "") for t in g.findall("svg:text", NS)]
        cells = [r.get("class", "") for r in g.findall("svg:rect", NS)]
        out.append((g.get("data-word", ""), letters, cells))
    return out


def test_ladder_of_the_proven_longest_sequence() -> None:
    res = cpwords.solve_truncate(WORDS)
    seq = res.solution.sequence
    assert res.verified and len(seq) == 8
    drawn = rungs(ladder_svg(seq))
    assert [w for w, _, _ in drawn] == list(seq)
    assert [sum(c == "cell added" for c in cells) for _, _, cells in drawn] == [0] + [1] * 7
    for (word, letters, _), (nxt, nletters, ncells) in itertools.pairwise(drawn):
        assert "".join(ch for _, ch in letters) == word.upper()
        # The word stands letter for letter inside the next one, at the same columns.
        kept = [(x, ch) for (x, ch), c in zip(nletters, ncells, strict=True) if c == "cell"]
        assert kept == letters
        assert nxt.startswith(word) or nxt.endswith(word)


def test_layout_sides() -> None:
    assert ladder_layout(["p", "pa", "spa", "spat"]) == [
        (1, None),
        (1, "back"),
        (0, "front"),
        (0, "back"),
    ]
    assert ladder_layout(["aa", "aaa"]) == [(0, None), (0, "back")]


@pytest.mark.parametrize("seq", [[], ["la", "lip"], ["a", "lap"]])
def test_not_a_sequence_is_refused(seq: list[str]) -> None:
    with pytest.raises(ValueError):
        ladder_svg(seq)


@needs_cairo
def test_cli_svg_and_png(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n")
    out, png = tmp_path / "ladder.svg", tmp_path / "ladder.png"
    args = ["truncate", "--dict", str(words), "--ending", "claps", "--svg", str(out)]
    res = CliRunner().invoke(cli, [*args, "--png", str(png)])
    assert res.exit_code == 0, res.output
    assert_png_of_svg(png, out)
    assert [w for w, _, _ in rungs(out.read_text())] == ["a", "la", "lap", "clap", "claps"]
    res = CliRunner().invoke(cli, args)
    assert isinstance(res.exception, InputError) and "add --force" in str(res.exception)
