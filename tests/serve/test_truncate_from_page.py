"""Issue 47, item 3: the Truncate page from a word is ``cpwords truncate --from WORD``: the
proven longest continuation, and whether the word is a dead end (the command's lines)."""

from __future__ import annotations

import html
import json
import re

import pytest
from starlette.testclient import TestClient

from tests.conftest import run_cli
from tests.serve.test_handout import download

#: Every test's Letterpress index cache is private (tests/serve/conftest.py).
pytestmark = pytest.mark.usefixtures("private_cache")


@pytest.mark.slow
@pytest.mark.parametrize(("word", "dead"), [("relapsed", True), ("lap", False)])
def test_the_page_says_what_the_command_says(
    client: TestClient, capsys: pytest.CaptureFixture[str], word: str, dead: bool
) -> None:
    """The dead end (or the next plays), the longest continuation and its count, as ``cpwords
    truncate --from WORD --all --limit 50`` answers in JSON (the page's download) and in
    text (the page's lines)."""
    page = client.get("/truncate", params={"word": word}).text
    argv = ["truncate", "--from", word, "--all", "--limit", "50"]
    code, out, err = run_cli([*argv, "--json"], capsys)
    assert code == 0, err
    row = json.loads(out)
    _, text, _ = run_cli(argv, capsys)
    said = dict(re.findall(r"^(from|dead end|next plays) +(.*)$", text, re.M))
    shown = dict(re.findall(r'<tr><th>([^<]*)</th><td id="[^"]*"[^>]*>([^<]*)</td>', page))
    assert {k: html.unescape(v) for k, v in shown.items() if k in said} == said
    assert row["dead_end"] is dead and said["from"] == word
    assert ("dead end" in said) is dead and ("next plays" in said) is not dead
    assert (row["plays_left"] == 0) is dead
    got = json.loads(download(page, "download-json"))
    assert list(got) == list(row)
    assert {k: v for k, v in got.items() if k != "wall_time"} == {
        k: v for k, v in row.items() if k != "wall_time"
    }
    drawn = re.findall(r'class="rung"[^>]*data-word="([^"]*)"', page)
    assert drawn == row["sequence"] and drawn[0] == word
    assert f"--from {word} --all --limit 50 --json" in page
