"""The grid page on an unfillable board: the conflicting slots, named and marked on the board."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import httpx

from cpwords.core.result import Status
from cpwords.grid.models.conflict import slots_conflict
from cpwords.grid.rules import default_board
from cpwords.serve.views import grid_tokens
from tests.conftest import grid_example
from tests.serve.conftest import LiveServer

NS = {"svg": "http://www.w3.org/2000/svg"}


def test_unfillable_board_names_a_minimal_conflict(live: LiveServer) -> None:
    # A full board of the page's default lexicon, with two prefix slots given the same token.
    board = default_board()
    full = dict(pair.split("=") for pair in grid_example(10000)[2].split(","))
    placed = dict(full) | {"n": full["e"]}
    params = {"action": "solve", **{f"t_{slot}": token for slot, token in placed.items()}}
    data = httpx.post(f"{live.url}/api/grid", data=params, timeout=120).json()
    assert data["status"] == "INFEASIBLE" and data["conflict"]["minimal"]
    slots = data["conflict"]["slots"]
    tokens = grid_tokens(10000, 2, 2, False)  # the whole lexicon: the proof's
    assert slots_conflict(board, tokens, slots, placed) is Status.INFEASIBLE
    for v in slots:
        rest = [u for u in slots if u != v]
        assert slots_conflict(board, tokens, rest, placed) is Status.FEASIBLE
    assert [t for _, t in data["conflict"]["tokens"]] == [placed.get(v) for v in slots]
    resp = httpx.post(f"{live.url}/grid", data=params, timeout=120)
    assert 'id="verdict">unfillable: ' in resp.text and 'id="conflict"' in resp.text
    svg = resp.text[resp.text.index("<svg") : resp.text.index("</svg>") + 6]
    drawn = ET.fromstring(svg)
    bad = {
        g.get("data-slot")
        for g in drawn.findall(".//svg:g", NS)
        if "bad" in (g.get("class") or "").split()
    }
    assert set(slots) <= bad
