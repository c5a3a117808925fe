"""The superstring page and its JSON answer: the command line's row, the answer holding every
word (a plain substring scan), the drawing, one-line refusals, no solve on a GET."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from cpwords.cli import cli
from cpwords.cli._common import RESULT_KEYS
from tests.serve.conftest import LiveServer

WORDS = "alpha\nphase\nsea\nseal\nlemon\nmonday\n"


def test_the_page_offers_the_form(live: LiveServer) -> None:
    resp = httpx.get(f"{live.url}/superstring", timeout=60)
    assert resp.status_code == 200 and 'id="superstring-form"' in resp.text
    assert re.search(r'href="/superstring"[^>]* class="here"', resp.text)  # the menu names the page


def test_a_pasted_list_gets_the_proven_superstring_as_the_command_line_does(
    live: LiveServer, tmp_path: Path
) -> None:
    data = {"words": WORDS}
    got = httpx.post(f"{live.url}/api/superstring", data=data, timeout=60).json()
    assert list(got)[: len(RESULT_KEYS)] == list(RESULT_KEYS)
    f = tmp_path / "w.txt"
    f.write_text(WORDS)
    cli_row = json.loads(CliRunner().invoke(cli, ["superstring", str(f), "--json"]).stdout)
    assert got["status"] == cli_row["status"] == "OPTIMAL" and got["proof"] == "certificate"
    assert got["objective"] == cli_row["objective"] == got["length"] == len(got["superstring"])
    assert all(w in got["superstring"] for w in WORDS.split())  # a plain scan
    assert got["contained"] == 1 and got["kept"] == 5  # "sea" lies in "seal"
    assert 'id="drawing"' in httpx.post(f"{live.url}/superstring", data=data, timeout=60).text
    page = httpx.post(f"{live.url}/superstring", data=data, timeout=60).text
    shown = re.search(r'id="superstring">([^<]*)<', page)
    assert shown and shown.group(1) == got["superstring"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"words": WORDS, "dict": "web2"}, "give the words or pick a dictionary, not both"),
        ({"words": "run\nna-usea\n"}, "1 line that is not a word"),
    ],
)
def test_bad_queries_are_refused_in_one_line(
    live: LiveServer, data: dict[str, str], message: str
) -> None:
    resp = httpx.post(f"{live.url}/api/superstring", data=data, timeout=60)
    error = resp.json()["error"]
    assert resp.status_code == 400 and message in error and "\n" not in error


def test_a_solve_is_never_run_by_a_get(live: LiveServer) -> None:
    assert httpx.get(f"{live.url}/api/superstring", params={"words": WORDS}).status_code == 405
    page = httpx.get(f"{live.url}/superstring", params={"words": WORDS}, timeout=60).text
    assert 'id="pending"' in page and 'id="length"' not in page
