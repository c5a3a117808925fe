"""Every drawing renders alike outside a browser: librsvg (``rsvg-convert``) and CairoSVG.

The SVG itself is checked for what every renderer reads the same way (one ``x`` per ``<text>``,
no ``dominant-baseline``, a caption); then librsvg's rendering is checked against the SVG (the
ink inside the picture, every Wordsnake overlap highlight under letters, the first letter not
cut) and against CairoSVG's (the ``--png`` renderer). The renderers are skipped with a reason
when absent (.ci/run installs librsvg2-bin and libcairo2; CairoSVG is the ``png`` extra).
"""

from __future__ import annotations

import io
import itertools
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cpwords.chain.draw import chain_svg
from cpwords.cli import cli
from cpwords.core.svg import svg_to_png
from cpwords.grid.draw import grid_svg
from cpwords.grid.rules import default_board
from cpwords.letterboxed.draw import box_svg
from cpwords.letterboxed.rules import parse_box
from cpwords.letterpress.draw import bag_svg, board_svg
from cpwords.letterpress.rules import parse_board
from cpwords.truncate.draw import ladder_svg
from cpwords.wordsnake.draw import snake_svg
from cpwords.wordsnake.rules import snake_score
from tests.conftest import run_cli
from tests.pictures import PNG_MAGIC, assert_png_of_svg, needs_cairo

NS = {"svg": "http://www.w3.org/2000/svg"}
RSVG = shutil.which("rsvg-convert")
needs_rsvg = pytest.mark.skipif(
    RSVG is None, reason="no rsvg-convert: apt-get install librsvg2-bin"
)

SNAKE = ["run", "nausea", "seasick", "sickle", "lemon"]
PICTURES: dict[str, Callable[[], str]] = {
    "snake": lambda: snake_svg(SNAKE, note="OPTIMAL"),
    "snake-cyclic": lambda: snake_svg(["grüßen", "ßen", "engel"], cyclic=True),
    "letterboxed": lambda: box_svg(parse_box("abc-def-ghi-jkl"), ["bechfag", "gjdkil"]),
    "letterpress": lambda: board_svg(
        parse_board("ovrkqlwislrecrtgmvpfprzey", "bb...b..r.....r...r.....r"),
        [10, 11, 12, 13],
        note="swing +5",
    ),
    "bag": lambda: bag_svg("tacos", "coat"),
    "truncate": lambda: ladder_svg(["a", "la", "lap", "laps", "lapse"]),
    "grid": lambda: grid_svg(default_board(), {"s1": "er", "c": "ov"}),
    "chain": lambda: chain_svg(["seasick", "kiln", "nausea", "abcdefghijklmnopqrstuvwxyza", "an"]),
}


def size_of(root: ET.Element) -> tuple[float, float]:
    """The picture's width and height, checked against its viewBox."""
    w, h = float(root.get("width", "0")), float(root.get("height", "0"))
    assert root.get("viewBox") == f"0 0 {w:g} {h:g}"
    return w, h


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_every_text_has_one_x_inside_the_picture_and_a_caption(name: str) -> None:
    svg = PICTURES[name]()
    assert "dominant-baseline" not in svg  # librsvg ignores it, browsers and CairoSVG do not
    root = ET.fromstring(svg)
    w, h = size_of(root)
    texts = root.findall(".//svg:text", NS)
    assert texts
    for t in texts:
        x, y = t.get("x", ""), t.get("y", "")
        assert " " not in x.strip() and " " not in y.strip()  # one position, not a list
        assert 0 < float(x) < w and 0 < float(y) < h, (t.text, x, y)
    lines = root.findall(".//svg:g[@class='caption']/svg:text", NS)
    assert lines and all(t.get("text-anchor") == "start" and (t.text or "").strip() for t in lines)


def test_snake_glyphs_in_order_and_on_their_highlights() -> None:
    root = ET.fromstring(snake_svg(SNAKE))
    cell = float(root.get("data-cell", "0"))
    for g in root.findall(".//svg:g[@class='word']", NS):
        xs = [float(t.get("x", "0")) for t in g.findall("svg:text", NS)]
        assert all(b - a == pytest.approx(cell) for a, b in itertools.pairwise(xs))
        for rect in g.findall("svg:rect", NS):
            x0 = float(rect.get("x", "0"))
            x1 = x0 + float(rect.get("width", "0"))
            k = int(rect.get("data-length", "0"))
            # The highlight covers exactly k glyph centres of its word.
            assert sum(x0 < x < x1 for x in xs) == k


def caption_text(root: ET.Element) -> str:
    return " ".join(t.text or "" for t in root.findall(".//svg:text[@class='caption-line']", NS))


def test_captions_say_what_is_drawn() -> None:
    snake = caption_text(ET.fromstring(snake_svg(SNAKE, note="OPTIMAL")))
    assert "5 words" in snake and "score 30 · OPTIMAL" in snake
    for cyclic in (False, True):  # the closing overlap counts in a cyclic snake
        text = caption_text(ET.fromstring(snake_svg(["abc", "cab"], cyclic=cyclic)))
        assert f"score {snake_score(['abc', 'cab'], cyclic)}" in text
    box = caption_text(ET.fromstring(box_svg(parse_box("abc-def-ghi-jkl"), ["bechfag"], reveal=0)))
    assert "ABC-DEF-GHI-JKL" in box and "0 of 1 word drawn" in box
    assert "1 word" in caption_text(ET.fromstring(ladder_svg(["a"])))


def rsvg_png(svg: str, tmp_path: Path, name: str) -> bytes:
    src = tmp_path / f"{name}.svg"
    src.write_text(svg, encoding="utf-8")
    out = tmp_path / f"{name}.png"
    assert RSVG is not None
    subprocess.run([RSVG, "-b", "white", str(src), "-o", str(out)], check=True, timeout=60)
    return out.read_bytes()


def ink(png: bytes, box: tuple[float, float, float, float] | None = None) -> Any:
    """The bounding box of the dark pixels (grey < 110) of a PNG, within ``box`` if given."""
    image = pytest.importorskip("PIL.Image").open(io.BytesIO(png)).convert("L")
    if box is not None:
        image = image.crop(tuple(round(v) for v in box))
    return image.point(lambda v: 255 if v < 110 else 0).getbbox(), image.size


@needs_rsvg
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PICTURES))
def test_rsvg_draws_inside_the_picture(name: str, tmp_path: Path) -> None:
    svg = PICTURES[name]()
    root = ET.fromstring(svg)
    w, h = size_of(root)
    png = rsvg_png(svg, tmp_path, name)
    assert png.startswith(PNG_MAGIC)
    bbox, size = ink(png)
    assert size == (round(w), round(h))
    left, top, right, bottom = bbox
    assert left >= 2 and top >= 2 and right <= w - 2 and bottom <= h - 2  # nothing cut off


@needs_rsvg
@pytest.mark.slow
def test_rsvg_puts_the_letters_on_their_highlights(tmp_path: Path) -> None:
    svg = snake_svg(SNAKE)
    png = rsvg_png(svg, tmp_path, "snake")
    root = ET.fromstring(svg)
    pad = float(root.get("data-cell", "0")) / 2
    for rect in root.findall(".//svg:rect[@data-length]", NS):
        x, y = float(rect.get("x", "0")), float(rect.get("y", "0"))
        rw, rh = float(rect.get("width", "0")), float(rect.get("height", "0"))
        bbox, _ = ink(png, (x, y, x + rw, y + rh))
        assert bbox is not None  # letters on the highlight (they sat beside it)
        # ... and spread over its whole width, not bunched on one side.
        assert bbox[0] < pad and bbox[2] > rw - pad
    # The first word starts at the left margin, where its first cell is.
    first = root.find(".//svg:g[@class='word']", NS)
    assert first is not None
    x0 = float(first.findall("svg:text", NS)[0].get("x", "0"))
    bbox, _ = ink(png)
    assert x0 - pad <= bbox[0] <= x0


@needs_rsvg
@needs_cairo
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PICTURES))
def test_cairosvg_and_rsvg_agree(name: str, tmp_path: Path) -> None:
    svg = PICTURES[name]()
    ours, theirs = svg_to_png(svg), rsvg_png(svg, tmp_path, name)
    root = ET.fromstring(svg)
    w, h = size_of(root)
    # Above: the drawing; below: the lines of text (the notes, the caption).
    runs = [t for t in root.iter(f"{{{NS['svg']}}}text") if "note" in t.get("class", "")]
    runs += root.findall(".//svg:g[@class='caption']/svg:text", NS)
    split = min(float(t.get("y", "0")) for t in runs) - 14
    # The drawing: the same to a few pixels (antialiasing).
    a, b = ink(ours, (0, 0, w, split)), ink(theirs, (0, 0, w, split))
    assert a[1] == b[1] and all(abs(p - q) <= 3 for p, q in zip(a[0], b[0], strict=True)), (a, b)
    # The lines of text: the same lines from the same left edge, but a run of letters is up to
    # 5% shorter or longer in CairoSVG (cairo rounds each advance to whole pixels: 8 px for
    # DejaVu Sans Mono's 8.4 at 14 px and its 7.8 at 13 px).
    a, b = ink(ours, (0, split, w, h)), ink(theirs, (0, split, w, h))
    assert a[0][1::2] == pytest.approx(b[0][1::2], abs=3)  # top and bottom
    assert a[0][0] == pytest.approx(b[0][0], abs=3)
    assert a[0][2] - a[0][0] == pytest.approx(b[0][2] - b[0][0], rel=0.06)


@needs_cairo
def test_cli_png_of_the_snake(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lst = tmp_path / "five.txt"
    lst.write_text("\n".join(SNAKE) + "\n")
    svg, png = tmp_path / "s.svg", tmp_path / "s.png"
    res = CliRunner().invoke(cli, ["snake", str(lst), "--svg", str(svg), "--png", str(png)])
    assert res.exit_code == 0, res.output
    assert_png_of_svg(png, svg)
    data = png.read_bytes()
    code, _, err = run_cli(["snake", str(lst), "--png", str(png)], capsys)
    assert code == 2 and "--png" in err and "--force" in err and png.read_bytes() == data
    code, _, err = run_cli(["snake", str(lst), "--png", str(png), "--check-text", "run"], capsys)
    assert code == 2 and "--png" in err


def test_png_without_cairosvg_is_one_line_naming_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import cairosvg -> ImportError
    out = tmp_path / "s.png"
    for argv in (["snake"], ["truncate"], ["letterboxed"]):
        code, stdout, err = run_cli([*argv, "--png", str(out)], capsys)
        assert code == 2 and not out.exists() and stdout == ""
        assert "pip install -e '.[png]'" in err and len(err.strip().splitlines()) == 1


def test_every_subcommand_with_svg_has_png() -> None:
    import click

    with_svg = {
        name
        for name, cmd in cli.commands.items()
        if any("--svg" in p.opts for p in cmd.params if isinstance(p, click.Option))
    }
    assert with_svg >= {"snake", "letterboxed", "letterpress", "truncate", "grid"}
    for name in with_svg:
        cmd = cli.commands[name]
        (png,) = [p for p in cmd.params if "--png" in getattr(p, "opts", [])]
        assert png.name == "png_path" and png.metavar == "FILE"
