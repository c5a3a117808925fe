"""``letterboxed --generate K --svg/--png``: the first generated box to play, without its answer."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cpwords.core.svg import png_problem
from cpwords.letterboxed.draw import puzzle_svg
from cpwords.letterboxed.rules import parse_box
from tests.conftest import run_cli

NS = {"svg": "http://www.w3.org/2000/svg"}


def _texts(svg: str) -> str:
    return " ".join("".join(e.itertext()) for e in ET.fromstring(svg).iter()).lower()


def test_generated_box_is_drawn_without_its_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_svg = tmp_path / "box.svg"
    argv = ["letterboxed", "--generate", "1", "--seed", "3", "--svg", str(out_svg), "--json"]
    code, out, _ = run_cli(argv, capsys)
    row = json.loads(out)
    assert code == 0 and row["found"] == 1
    box = parse_box(row["solution"][0])
    drawn = out_svg.read_text(encoding="utf-8")
    root = ET.fromstring(drawn)
    assert root.get("data-words") == "0" and root.get("data-box") == str(box)
    assert not root.findall(".//svg:path[@class='word']", NS)
    labels = {e.text for e in root.findall(".//svg:text[@class='letter']", NS)}
    assert labels == {ch.upper() for ch in box.letters}
    # no word of the answer shows anywhere (title, caption)
    answer = row["boxes"][0]["solution"]
    assert answer and not any(w in _texts(drawn) for w in answer)
    # an existing file is not replaced without --force (exit 2, left as it was)
    out_svg.write_text("mine", encoding="utf-8")
    code, _, err = run_cli(argv, capsys)
    assert code == 2 and "--force" in err and out_svg.read_text(encoding="utf-8") == "mine"
    code, _, _ = run_cli([*argv, "--force"], capsys)
    assert code == 0 and out_svg.read_text(encoding="utf-8") == drawn


@pytest.mark.skipif(png_problem() is not None, reason=str(png_problem()))
def test_generated_box_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_png = tmp_path / "box.png"
    argv = ["letterboxed", "--generate", "1", "--png", str(out_png)]
    code, _, _ = run_cli(argv, capsys)
    assert code == 0 and out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_puzzle_svg_names_the_target_only() -> None:
    box = parse_box("abc-def-ghi-jkl")
    svg = puzzle_svg(box, 2)
    assert "solve it in 2 words" in svg and ET.fromstring(svg).get("data-words") == "0"


def test_svg_still_refused_with_check(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["letterboxed", "abc-def-ghi-jkl", "--check-text", "abc", "--svg", "x.svg"]
    code, _, err = run_cli(argv, capsys)
    assert code == 2 and "--check" in err
