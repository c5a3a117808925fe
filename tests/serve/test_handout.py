"""Pages for designers and players (issue 47, item 5): a puzzle to hand out without its answer
(SVG and PNG), each long answer as text and as the command's ``--json``, and a Wordsnake
solve's heartbeat every second."""

from __future__ import annotations

import html
import itertools
import json
import re
import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import httpx
import pytest
from starlette.testclient import TestClient

from cpwords.wordsnake.spec import random_strings
from tests.conftest import run_cli
from tests.serve.conftest import LiveServer

#: The README's Letter Boxed box, read in ENABLE (a 3-word optimum with a dozen ties).
BOX = "lua-sgc-yhk-zop"
#: The README's Letterpress bag and the guide's board colours.
BAG = "ovrkqlwislrecrtgmvpfprzey"
COLOURS = "bbr../b.rr./...../.r.../....b"
#: A small list for the Wordsnake, chain and superstring pages (a file for the command).
WORDS = ["seasick", "kiln", "nausea", "run", "nab", "bee", "eel", "lemon", "run"]

#: Every test's Letterpress index cache is private (tests/serve/conftest.py).
pytestmark = pytest.mark.usefixtures("private_cache")


def link(page: str, ident: str) -> str:
    """The address of the page's link ``ident`` (HTML entities read)."""
    m = re.search(rf'id="{ident}"[^>]*href="([^"]*)"', page)
    assert m, ident
    return html.unescape(m.group(1))


def download(page: str, ident: str) -> str:
    """The text behind a download link of the page (a data: URL)."""
    href = link(page, ident)
    assert href.startswith("data:")
    return unquote(href.split(",", 1)[1])


def command(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    """The command's ``--json`` row."""
    code, out, err = run_cli([*argv, "--json"], capsys)
    assert code == 0, err
    row = json.loads(out)
    assert isinstance(row, dict)
    return row


# ---- puzzles without their answer ----------------------------------------------------------------


def test_letterboxed_puzzle_has_the_letters_and_no_answer(client: TestClient) -> None:
    page = client.get("/letterboxed", params={"box": BOX, "dict": "enable1"}).text
    answers = json.loads(download(page, "download-json"))["optimal_solutions"]
    resp = client.get(link(page, "puzzle-svg"))
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("image/svg+xml")
    svg = resp.text
    for ch in BOX.replace("-", ""):
        assert f">{ch.upper()}</text>" in svg
    assert 'class="word"' not in svg and 'data-words="0"' in svg
    assert "solve it in 3 words" in svg  # the proven target, no word of it
    words = {w for answer in answers for w in answer}
    assert not [w for w in words if w in svg.lower()]
    png = client.get(link(page, "puzzle-png"))
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    assert png.content.startswith(b"\x89PNG\r\n\x1a\n")


def test_a_generated_box_in_hint_mode_links_its_puzzle(client: TestClient) -> None:
    url = f"/letterboxed?box={BOX}&dict=enable1&hint=1&reveal=0&generated=5"
    page = client.get(url).text
    assert 'id="download-json"' not in page  # the answer stays hidden in hint mode
    svg = client.get(link(page, "puzzle-svg")).text
    assert 'class="word"' not in svg and f'data-box="{BOX}"' in svg


def test_grid_puzzle_places_the_suffixes_and_no_prefix(client: TestClient) -> None:
    query = {"t_s1": "er", "t_s2": "ng", "t_c": "ov", "action": "check"}
    page = client.get("/grid", params=query).text
    href = link(page, "puzzle-svg")
    assert "t_c=" not in href
    svg = client.get(href).text
    assert 'data-token="er"' in svg and 'data-token="ng"' in svg
    assert 'data-token="ov"' not in svg and 'data-filled="2"' in svg
    assert "data-word=" not in svg and "find the prefixes" in svg
    # A prefix given in the query is the answer: left out.
    svg = client.get("/grid/puzzle.svg", params={"t_s1": "er", "t_c": "ov"}).text
    assert 'data-filled="1"' in svg and 'data-token="ov"' not in svg
    png = client.get(link(page, "puzzle-png"))
    assert png.content.startswith(b"\x89PNG")


def test_letterpress_puzzle_is_the_board_without_the_move(client: TestClient) -> None:
    page = client.get("/letterpress", params={"letters": BAG, "colours": COLOURS}).text
    svg = client.get(link(page, "puzzle-svg")).text
    assert svg.count('class="tile"') == 25
    assert 'class="used"' not in svg and 'class="order"' not in svg
    assert "find the best move" in svg
    bag = client.get("/letterpress/puzzle.svg", params={"letters": "tacos"}).text
    assert bag.count('class="tile"') == 5 and 'class="used"' not in bag
    png = client.get(link(page, "puzzle-png"))
    assert png.content.startswith(b"\x89PNG")


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("/letterboxed/puzzle.svg", "give the box"),
        ("/letterboxed/puzzle.png?box=ab", "4 sides"),
        (f"/letterboxed/puzzle.svg?box={BOX}&words=0", "words must be a whole number"),
        ("/grid/puzzle.svg?t_s1=ing", "the suffix length is 2"),
        ("/grid/puzzle.svg?t_s1=e1", "not letters"),
        ("/grid/puzzle.png?t_s1=er,c%3Dov", "not one token"),
        ("/grid/puzzle.svg?L=9", "suffix length"),
        ("/letterpress/puzzle.svg", "give the letters"),
        ("/letterpress/puzzle.svg?letters=abc&colours=bb", "25 letters"),
        ("/letterpress/puzzle.png?letters=ab1", "letters only"),
    ],
)
def test_a_bad_puzzle_query_is_refused(client: TestClient, url: str, said: str) -> None:
    resp = client.get(url)
    assert resp.status_code == 400
    assert said in resp.json()["error"]


# ---- downloads: the command's --json ----------------------------------------------------------


def test_letterboxed_downloads_are_the_commands(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    page = client.get("/letterboxed", params={"box": BOX, "dict": "enable1"}).text
    row = json.loads(download(page, "download-json"))
    cli = command(capsys, "letterboxed", BOX, "--dict", "enable1", "--all", "--max-words", "2")
    assert list(row) == list(cli)
    for key in ("status", "objective", "solution", "counts", "count_total", "n_optimal"):
        assert row[key] == cli[key]
    assert sorted(map(tuple, row["optimal_solutions"])) == sorted(
        map(tuple, cli["optimal_solutions"])
    )
    lines = download(page, "download-txt").splitlines()
    assert [line.split() for line in lines] == row["optimal_solutions"]


def test_letterpress_downloads_are_the_commands(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    page = client.get("/letterpress", params={"letters": BAG}).text
    row = json.loads(download(page, "download-json"))
    cli = command(capsys, "letterpress", BAG, "--longest-first")
    assert list(row) == list(cli)
    for key in ("status", "objective", "solution", "count", "lexicon", "lexicon_size", "letters"):
        assert row[key] == cli[key]
    assert download(page, "download-txt") == "\n".join(cli["solution"]) + "\n"


def test_truncate_downloads_are_the_commands(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    page = client.get("/truncate", params={"word": "relapsed", "direction": "to"}).text
    row = json.loads(download(page, "download-json"))
    cli = command(capsys, "truncate", "--end", "relapsed", "--all", "--limit", "50")
    assert list(row) == list(cli)
    for key in ("status", "objective", "sequence", "sequences", "count", "length", "lexicon"):
        assert row[key] == cli[key]
    lines = download(page, "download-txt").splitlines()
    assert [line.split() for line in lines] == cli["sequences"]


def word_file(tmp_path: Path) -> str:
    """:data:`WORDS` in a file, one a line, for the command."""
    path = tmp_path / "words.txt"
    path.write_text("\n".join(WORDS) + "\n")
    return str(path)


def test_chain_downloads_are_the_commands(
    client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The chain page's JSON is ``cpwords chain FILE --json`` key for key (the list's name
    aside: the page's pasted list is 'the list', the command's its file), as is ``/api/chain``'s
    ``row``; ties may give another chain of the same length, so each is checked by the rules."""
    from cpwords.chain.rules import chain_problems

    data = {"words": "\n".join(WORDS), "k": "1", "maximise": "words"}
    page = client.post("/chain", data=data).text
    api = client.post("/api/chain", data=data).json()
    row = json.loads(download(page, "download-json"))
    cli = command(capsys, "chain", word_file(tmp_path))
    assert list(row) == list(api["row"]) == list(cli)
    same = ["status", "objective", "bound", "counts", "words", "letters", "overlap", "maximise"]
    same += ["start", "end", "list_size", "usable", "proof", "verified"]
    assert {k: row[k] for k in same} == {k: cli[k] for k in same}
    assert [row[k] for k in ("status", "objective")] == [api[k] for k in ("status", "objective")]
    assert row["status"] == "OPTIMAL" and row["list"] == "the list"
    assert row["solution"] == row["chain"]
    for chain in (row["chain"], api["row"]["chain"], cli["chain"]):
        assert not chain_problems(chain, set(WORDS), 1)
    assert download(page, "download-txt") == "\n".join(row["chain"]) + "\n"


def test_superstring_downloads_are_the_commands(
    client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The superstring page's JSON is ``cpwords superstring FILE --json`` key for key (the
    list's name aside), as is ``/api/superstring``'s ``row``; the superstrings may differ on
    ties, so each is checked to hold every word."""
    data = {"words": "\n".join(WORDS)}
    page = client.post("/superstring", data=data).text
    api = client.post("/api/superstring", data=data).json()
    row = json.loads(download(page, "download-json"))
    cli = command(capsys, "superstring", word_file(tmp_path))
    assert list(row) == list(api["row"]) == list(cli)
    same = ["status", "objective", "bound", "counts", "length", "list_size", "repeated"]
    same += ["contained", "kept", "letters", "kept_letters", "overlap", "proof", "verified"]
    assert {k: row[k] for k in same} == {k: cli[k] for k in same}
    assert row["status"] == "OPTIMAL" and row["list"] == "the list"
    for text in (row["superstring"], api["row"]["superstring"], cli["superstring"]):
        assert all(w in text for w in WORDS) and len(text) == row["length"]
    assert download(page, "download-txt") == row["superstring"] + "\n"


@pytest.mark.slow
def test_grid_unique_downloads_are_the_commands(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    """The grid page's unique puzzles download as ``cpwords grid --top 5000 -L 2 -P 2 --unique
    --json`` prints them (``/api/grid``: under ``row``, beside its own ``unique``)."""
    query = {"top": "5000", "L": "2", "P": "2", "action": "unique"}
    page = client.post("/grid", data=query).text
    api = client.post("/api/grid", data=query).json()
    row = json.loads(download(page, "download-json"))
    cli = command(capsys, "grid", "--top", "5000", "-L", "2", "-P", "2", "--unique")
    assert list(row) == list(api["row"]) == list(cli)
    timed = {"wall_time", "stats"}
    assert {k: v for k, v in row.items() if k not in timed} == {
        k: v for k, v in cli.items() if k not in timed
    }
    assert row["solution"] == [p["suffixes"] for p in api["unique"]] and row["complete"]
    lines = download(page, "download-txt").splitlines()
    assert [line.split("\t")[0].split() for line in lines] == row["solution"]
    assert len(re.findall(r'class="puzzle-svg"', page)) == len(api["unique"]) > 0


@pytest.mark.slow
def test_wordsnake_download_is_the_commands(
    client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A Wordsnake solve's result.json is ``cpwords snake FILE --json`` key for key (both rows
    built by :func:`cpwords.wordsnake.modes.wordsnake_row`), the list's name aside."""
    resp = client.post("/api/wordsnake/jobs", json={"words": "\n".join(WORDS), "time_limit": 60})
    assert resp.status_code == 202, resp.text
    url = f"/api/wordsnake/jobs/{resp.json()['id']}/result.json"
    deadline = time.monotonic() + 120
    while (got := client.get(url)).status_code == 409 and time.monotonic() < deadline:
        time.sleep(0.1)  # a bound on a hung job, not a timing assertion
    assert got.status_code == 200, got.text
    row = got.json()
    cli = command(capsys, "snake", word_file(tmp_path), "--workers", "1")
    assert list(row) == list(cli)
    same = ["status", "objective", "bound", "method", "verified", "interrupted", "stopped", "n"]
    same += ["cyclic", "proper", "score", "duplicates", "total_chars", "snake_chars", "proof"]
    assert {k: row[k] for k in same} == {k: cli[k] for k in same}
    assert row["status"] == "OPTIMAL" and row["duplicates"] == {"run": 2}
    assert row["instance"] == "the list" and sorted(row["solution"]) == sorted(WORDS)


# ---- the Wordsnake heartbeat -------------------------------------------------------------------


def _events(live: LiveServer, job: str, seconds: float) -> list[tuple[str, dict[str, Any]]]:
    """The job's server-sent events for ``seconds`` (closing the stream stops the solve)."""
    out: list[tuple[str, dict[str, Any]]] = []
    kind = None
    t0 = time.monotonic()
    url = f"{live.url}/api/wordsnake/jobs/{job}/events"
    with httpx.stream("GET", url, timeout=30) as resp:
        for line in resp.iter_lines():
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: ") and kind is not None:
                out.append((kind, json.loads(line[6:])))
                if kind == "done":
                    break
            if time.monotonic() - t0 > seconds:
                break
    return out


@pytest.mark.slow
def test_a_running_solve_ticks_every_second(live: LiveServer) -> None:
    # A list whose proof takes seconds (`abc` n=1,000 seed 3 cyclic: its core search and
    # strong tree, 4.4 s of CPU; issue 46's l545 took 17 s until its tree was warm-started and
    # now ends in 1.5 s, before the third tick), so the solve outlasts the ticks listened to.
    words = random_strings("abc", 1000, 3)
    spec = {"words": "\n".join(words), "cyclic": True, "method": "exact", "time_limit": 60}
    resp = httpx.post(f"{live.url}/api/wordsnake/jobs", json=spec, timeout=30)
    assert resp.status_code == 202, resp.text
    events = _events(live, resp.json()["id"], 4.5)
    ticks = [(i, d) for i, (kind, d) in enumerate(events) if kind == "tick"]
    assert len(ticks) >= 3, events
    times = [d["elapsed"] for _, d in ticks]
    assert times == sorted(times)
    assert all(0.5 < b - a < 1.6 for a, b in itertools.pairwise(times))
    for i, d in ticks:  # truthful: the last report as it was sent, or nothing before one
        before = [p for kind, p in events[:i] if kind == "progress"]
        if not before:
            assert d["since"] is None and d["stage"] is d["bound"] is d["incumbent"] is None
        else:
            last = before[-1]
            assert (d["stage"], d["incumbent"], d["bound"]) == (
                last["stage"],
                last["incumbent"],
                last["bound"],
            )
            assert d["since"] is not None and 0 <= d["since"] <= d["elapsed"]
