"""Shared checks of the --png files: a PNG of the --svg picture's size."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cpwords.core.svg import png_problem

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

#: Skips a test of --png where CairoSVG or the cairo library is missing, saying which.
needs_cairo = pytest.mark.skipif(
    png_problem() is not None, reason=f"{png_problem()} (and apt-get install libcairo2)"
)


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG file, from its header (IHDR), after checking its signature."""
    assert data.startswith(PNG_MAGIC) and data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def assert_png_of_svg(png: Path, svg: Path) -> None:
    """``png`` is a PNG image as wide and high as the SVG picture ``svg``."""
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    w, h = round(float(root.get("width", "0"))), round(float(root.get("height", "0")))
    assert png_size(png.read_bytes()) == (w, h) and w > 100 and h > 50
