"""Issue 47, item 3: the Letterpress page one ply ahead is ``cpwords letterpress LETTERS --board
COLOURS --lookahead 1``: the move that leaves the opponent the weakest best reply, that reply
and the net value, the command's lines."""

from __future__ import annotations

import html
import json
import re

import pytest
from starlette.testclient import TestClient

from tests.conftest import run_cli

#: The README's Letterpress board and the guide's colours.
BAG = "ovrkqlwislrecrtgmvpfprzey"
COLOURS = "bb...b..r.....r...r.....r"

#: Every test's Letterpress index cache is private (tests/serve/conftest.py).
pytestmark = pytest.mark.usefixtures("private_cache")


@pytest.mark.slow
def test_one_ply_ahead_is_the_commands(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    form = {"letters": BAG, "colours": COLOURS, "lookahead": "1"}
    page = client.post("/letterpress", data=form).text
    argv = ["letterpress", BAG, "--board", COLOURS, "--lookahead", "1"]
    code, out, err = run_cli([*argv, "--json"], capsys)
    assert code == 0, err
    row = json.loads(out)
    _, text, _ = run_cli(argv, capsys)
    said = dict(re.findall(r"^(reply|net) +(.*)$", text, re.M))
    shown = dict(re.findall(r'<tr><th>(reply|net)</th><td id="[^"]*">([^<]*)</td>', page))
    assert {k: html.unescape(v) for k, v in shown.items()} == said and len(said) == 2
    word = re.search(r'id="move">([^<]*)<', page)
    assert word and word[1] == row["solution"]["word"].upper()
    assert said["reply"].startswith(row["solution"]["reply"]["word"].upper())
    assert "proven best move one ply ahead" in page
    # Without the box ticked: the largest swing, no reply said.
    plain = client.post("/letterpress", data={"letters": BAG, "colours": COLOURS}).text
    assert 'id="lookahead-lines"' not in plain and 'id="lookahead" checked' not in plain
