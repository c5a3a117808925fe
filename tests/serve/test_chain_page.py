"""The word-chain page and its JSON answer: the command line's row, the chain re-checked by the
rules, the drawing, one-line refusals."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from cpwords.chain.rules import chain_problems
from cpwords.cli import cli
from cpwords.cli._common import RESULT_KEYS
from tests.serve.conftest import LiveServer

WORDS = "seasick\nkiln\nnausea\nrun\nnab\nbee\neel\nlemon\n"


def test_the_page_offers_the_form(live: LiveServer) -> None:
    resp = httpx.get(f"{live.url}/chain", timeout=60)
    assert resp.status_code == 200 and 'id="chain-form"' in resp.text
    assert re.search(r'href="/chain"[^>]* class="here"', resp.text)  # the menu names the page


def test_a_pasted_list_gets_the_proven_chain_as_the_command_line_does(
    live: LiveServer, tmp_path: Path
) -> None:
    data = {"words": WORDS, "k": "1", "maximise": "words"}
    got = httpx.post(f"{live.url}/api/chain", data=data, timeout=60).json()
    assert list(got)[: len(RESULT_KEYS)] == list(RESULT_KEYS)
    f = tmp_path / "w.txt"
    f.write_text(WORDS)
    cli_row = json.loads(CliRunner().invoke(cli, ["chain", str(f), "--json"]).stdout)
    assert got["status"] == cli_row["status"] == "OPTIMAL"
    assert got["objective"] == cli_row["objective"] == len(got["chain"]) == got["words"]
    assert not chain_problems(got["chain"], set(WORDS.split()), 1)
    assert got["svg"].count('class="word"') == got["words"]
    page = httpx.post(f"{live.url}/chain", data=data, timeout=60).text
    assert f'id="size">{got["words"]} words' in page and 'id="drawing"' in page
    shown = re.search(r'id="chain">([^<]*)<', page)
    assert shown and shown.group(1).split(" → ") == got["chain"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"words": WORDS, "dict": "web2"}, "give the words or pick a dictionary, not both"),
        ({"words": WORDS, "k": "7"}, "k must be from 1 to 3, got 7"),
        ({"words": "run\nna-usea\n"}, "1 line that is not a word"),
        ({"words": WORDS, "start": "zebra"}, "zebra"),
    ],
)
def test_bad_queries_are_refused_in_one_line(
    live: LiveServer, data: dict[str, str], message: str
) -> None:
    resp = httpx.post(f"{live.url}/api/chain", data=data, timeout=60)
    error = resp.json()["error"]
    assert resp.status_code == 400 and message in error and "\n" not in error
    page = httpx.post(f"{live.url}/chain", data=data, timeout=60)
    assert page.status_code == 400 and 'id="error"' in page.text


def test_a_solve_is_never_run_by_a_get(live: LiveServer) -> None:
    assert httpx.get(f"{live.url}/api/chain", params={"words": WORDS}).status_code == 405
    page = httpx.get(f"{live.url}/chain", params={"words": WORDS}, timeout=60).text
    assert 'id="pending"' in page and 'id="size"' not in page
