"""Pages for designers (issue 47, item 5): the result block first, the long answer to download,
a generated Letter Boxed box shown as a puzzle with its answer one click away."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import unquote

import httpx

from cpwords.chain.rules import chain_problems
from tests.serve.conftest import LiveServer

WORDS = "seasick\nkiln\nnausea\nrun\nnab\nbee\neel\nlemon\n"


def _download(page: str, ident: str) -> str:
    """The text behind a download link of the page (a data: URL)."""
    m = re.search(rf'id="{ident}"[^>]*href="data:[^,]*,([^"]*)"', page)
    assert m, ident
    return unquote(html.unescape(m.group(1)))


def test_chain_page_summary_first_and_downloads(live: LiveServer) -> None:
    data = {"words": WORDS, "k": "1", "maximise": "words"}
    page = httpx.post(f"{live.url}/chain", data=data, timeout=60).text
    got = httpx.post(f"{live.url}/api/chain", data=data, timeout=60).json()
    assert page.index('id="size"') < page.index('id="chain"') < page.index('id="drawing"')
    text = _download(page, "download-txt")
    assert text.splitlines() == got["solution"] and text.endswith("\n")
    row = json.loads(_download(page, "download-json"))
    assert row["chain"] == got["solution"] and row["status"] == got["status"] == "OPTIMAL"
    assert row["words"] == len(row["chain"]) and not chain_problems(
        row["chain"], set(WORDS.split()), 1
    )


def test_superstring_page_summary_first_and_downloads(live: LiveServer) -> None:
    data = {"words": WORDS}
    page = httpx.post(f"{live.url}/superstring", data=data, timeout=60).text
    got = httpx.post(f"{live.url}/api/superstring", data=data, timeout=60).json()
    assert page.index('id="length"') < page.index('id="superstring"') < page.index('id="drawing"')
    text = _download(page, "download-txt")
    assert text == got["solution"] + "\n"
    row = json.loads(_download(page, "download-json"))
    assert row["superstring"] == got["solution"] and row["length"] == len(got["solution"])
    assert all(w in row["superstring"] for w in WORDS.split())


def test_a_generated_box_is_shown_as_a_puzzle(live: LiveServer) -> None:
    resp = httpx.post(f"{live.url}/letterboxed/generate", data={"seed": "5"}, timeout=120)
    assert resp.status_code == 303 and "hint=1" in resp.headers["location"]
    page = httpx.get(live.url + resp.headers["location"], timeout=120).text
    assert 'id="hint"' in page and 'id="generated"' in page
    assert 'class="word"' not in page  # no word of the answer drawn
    assert 'id="solution"' not in page and 'id="optimal"' not in page
    m = re.search(r'href="([^"]*)" id="show-all">Reveal the answer<', page)
    assert m
    shown = httpx.get(live.url + html.unescape(m.group(1)), timeout=120).text
    words = re.search(r'id="solution">([^<]*)<', shown)
    assert words and shown.count('class="word"') == len(words.group(1).split("–"))
