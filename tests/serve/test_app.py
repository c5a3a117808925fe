"""cpwords serve over HTTP on 127.0.0.1: pages, errors, the Wordsnake solve's life cycle."""

from __future__ import annotations

import json
import os
import time
import xml.etree.ElementTree as ET
from typing import Any

import httpx
import pytest

import cpwords
from cpwords.core.errors import InputError
from cpwords.core.lexicon import parse_word_lines
from cpwords.letterboxed.rules import parse_box
from cpwords.serve.messages import page_message
from cpwords.wordsnake.certificate import certificate_from_json, verify_certificate
from cpwords.wordsnake.spec import random_strings
from tests.serve.conftest import LiveServer

NS = {"svg": "http://www.w3.org/2000/svg"}
FIVE = "run\nnausea\nseasick\nsickle\nlemon\n"
NYT = "lua-sgc-yhk-zop"  # 2024-02-04: PSYCHOLOGY-YAKUZA (on wordfreq's list; not the default)
WORDFREQ = "wordfreq:100000"


def message(call: Any, *args: Any) -> str:
    """The one line the CLI prints for this bad input (after 'cpwords: error: ')."""
    with pytest.raises(InputError) as info:
        call(*args)
    return str(info.value)


def events(live: LiveServer, job_id: str, timeout: float = 60) -> list[tuple[str, dict[str, Any]]]:
    """Every server-sent event of a job, up to and including ``done``."""
    out: list[tuple[str, dict[str, Any]]] = []
    url = f"{live.url}/api/wordsnake/jobs/{job_id}/events"
    with httpx.stream("GET", url, timeout=timeout) as resp:
        kind = ""
        for line in resp.iter_lines():
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                out.append((kind, json.loads(line[6:])))
                if kind == "done":
                    break
    return out


def alive(pid: int) -> bool:
    """The process, or any process of its group (the solve's forked children), still runs."""
    if os.path.exists(f"/proc/{pid}"):
        return True
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_pages_load(live: LiveServer) -> None:
    pages = [
        ("/", "Word puzzles"),
        ("/letterboxed", "Generate a box"),
        ("/wordsnake", "Start the proof"),
        ("/static/style.css", "cpwords"),
        ("/letterpress", "Find the words"),
        ("/truncate", "Find the longest chains"),
        ("/grid", "Check the board"),
    ]
    for path, text in pages:
        resp = httpx.get(live.url + path)
        assert resp.status_code == 200 and text in resp.text, path


@pytest.mark.slow
def test_letterboxed_page_draws_the_proven_solution(live: LiveServer) -> None:
    resp = httpx.get(f"{live.url}/letterboxed", params={"box": NYT, "dict": WORDFREQ}, timeout=120)
    assert resp.status_code == 200
    assert "PSYCHOLOGY–YAKUZA" in resp.text and "proven fewest words" in resp.text
    svg = resp.text[resp.text.index("<svg") : resp.text.index("</svg>") + 6]
    paths = ET.fromstring(svg).findall(".//svg:path[@class='word']", NS)
    assert [p.get("data-word") for p in paths] == ["psychology", "yakuza"]
    assert [p.get("d", "").count(" L ") for p in paths] == [9, 5]


def test_letterboxed_hint_mode_reveals_one_word_at_a_time(live: LiveServer) -> None:
    for k, drawn in [(0, 0), (1, 1), (2, 2)]:
        resp = httpx.get(
            f"{live.url}/letterboxed",
            params={"box": NYT, "hint": 1, "reveal": k, "dict": WORDFREQ},
            timeout=120,
        )
        assert resp.text.count('class="word"') == drawn
        assert ("YAKUZA" in resp.text) == (k == 2)
    resp = httpx.get(
        f"{live.url}/letterboxed", params={"box": NYT, "hint": 1, "reveal": 1, "dict": WORDFREQ}
    )
    assert "Next word: 6 letters, starting with Y." in resp.text


@pytest.mark.slow
def test_letterboxed_api_and_generate(live: LiveServer) -> None:
    params = {"box": NYT, "dict": WORDFREQ}
    data = httpx.get(f"{live.url}/api/letterboxed", params=params, timeout=120).json()
    assert data["solution"] == ["psychology", "yakuza"] and data["status"] == "OPTIMAL"
    assert data["counts"]["2"] == len(data["optimal_solutions"]) == data["n_optimal"] == 1
    resp = httpx.post(f"{live.url}/letterboxed/generate", data={"unique": 1, "seed": 3})
    assert resp.status_code == 303
    box = resp.headers["location"].split("box=")[1].split("&")[0]
    data = httpx.get(f"{live.url}/api/letterboxed", params={"box": box}).json()
    assert data["num_words"] == 2 and data["counts"]["2"] == 1


@pytest.mark.parametrize("box", ["lua-sgc-yhk-zoo", "abc-def", "ab1-cde-fgh-ijk", ""])
def test_bad_box_is_the_cli_line_never_a_traceback(live: LiveServer, box: str) -> None:
    expected = message(parse_box, box) if box else "give the box, like abc-def-ghi-jkl"
    resp = httpx.get(f"{live.url}/api/letterboxed", params={"box": box})
    assert resp.status_code == 400 and resp.json()["error"].startswith(expected)
    if box:
        page = httpx.get(f"{live.url}/letterboxed", params={"box": box}).text
        assert "Traceback" not in page
        assert f"error: {expected}".replace("'", "&#39;") in page


def test_unknown_page_and_job(live: LiveServer) -> None:
    assert httpx.get(f"{live.url}/nowhere").status_code == 404
    resp = httpx.get(f"{live.url}/api/wordsnake/jobs/nope/events")
    assert resp.status_code == 404 and "no such solve" in resp.json()["error"]


@pytest.mark.slow
def test_wordsnake_solve_streams_progress_and_result(live: LiveServer) -> None:
    resp = httpx.post(f"{live.url}/api/wordsnake/jobs", json={"words": FIVE, "time_limit": 30})
    assert resp.status_code == 202
    job = resp.json()["id"]
    evs = events(live, job)
    kinds = [k for k, _ in evs]
    assert kinds[-1] == "done" and "started" in kinds
    done = evs[-1][1]
    assert done["state"] == "done" and done["status"] == "OPTIMAL" and done["objective"] == 30
    assert done["verified"] is True
    root = ET.fromstring(done["svg"])
    assert len(root.findall(".//svg:rect[@class='overlap tail']", NS)) == 4
    row = httpx.get(f"{live.url}/api/wordsnake/jobs/{job}/result.json").json()
    assert row["solution"] == ["run", "nausea", "seasick", "sickle", "lemon"]
    assert row["n"] == 5 and row["snake_chars"] == 17
    svg = httpx.get(f"{live.url}/api/wordsnake/jobs/{job}/snake.svg")
    assert svg.headers["content-type"].startswith("image/svg+xml")
    assert "certificate_file" not in row and row["solver_info"]["certificate"]["bound"] == 30
    # The certificate of the default method, checked by the independent checker.
    cert = httpx.get(f"{live.url}/api/wordsnake/jobs/{job}/certificate.json")
    assert cert.status_code == 200 and "attachment" in cert.headers["content-disposition"]
    found = verify_certificate(FIVE.split(), certificate_from_json(cert.json()))
    assert found.status == "VALID" and found.optimal and found.bound == 30


def test_wordsnake_bad_input_is_the_cli_line(live: LiveServer) -> None:
    url = f"{live.url}/api/wordsnake/jobs"
    # The CLI's line, its flags told as the page's controls.
    expected = page_message(message(parse_word_lines, "run\nNa-usea\n", "the list"))
    assert "Na-usea" in expected and "--" not in expected
    resp = httpx.post(url, json={"words": "run\nNa-usea\n"})
    assert resp.status_code == 400 and resp.json() == {"error": expected}
    resp = httpx.post(url, json={"words": FIVE, "time_limit": 0})
    assert resp.status_code == 400 and "time limit" in resp.json()["error"]
    resp = httpx.post(url, json={"words": FIVE, "method": "magic"})
    assert "unknown method 'magic'" in resp.json()["error"]
    resp = httpx.post(
        url, content=b"x" * (300 * 1024), headers={"Content-Type": "application/json"}
    )
    assert resp.status_code == 413 and "upload cap" in resp.json()["error"]


def _long_solve(live: LiveServer) -> str:
    """A solve that runs far past any test's patience (CP-SAT routes on 1,000 'ab' strings)."""
    words = "\n".join(random_strings("ab", 1000, 1, 6, 12))
    body = {"words": words, "method": "cpsat-routes", "time_limit": 120}
    resp = httpx.post(f"{live.url}/api/wordsnake/jobs", json=body)
    assert resp.status_code == 202
    return str(resp.json()["id"])


def _wait_pid(live: LiveServer, job_id: str) -> int:
    job = live.app.state.jobs.get(job_id)
    t0 = time.monotonic()
    while job.pid is None:
        assert time.monotonic() - t0 < 30
        time.sleep(0.05)
    return int(job.pid)


@pytest.mark.slow
def test_stop_ends_the_solve_and_its_process_and_the_queue_moves(live: LiveServer) -> None:
    first = _long_solve(live)
    pid = _wait_pid(live, first)
    # One solve at a time on this server: the second waits, and says where.
    resp = httpx.post(f"{live.url}/api/wordsnake/jobs", json={"words": FIVE})
    second = resp.json()["id"]
    assert resp.json()["position"] == 1
    time.sleep(1.0)
    t0 = time.monotonic()
    httpx.post(f"{live.url}/api/wordsnake/jobs/{first}/stop")
    evs = events(live, first)
    stopped_in = time.monotonic() - t0
    assert evs[-1] == ("done", evs[-1][1]) and evs[-1][1]["state"] == "stopped"
    assert stopped_in < 2.5, stopped_in
    assert not alive(pid)
    done = events(live, second)[-1][1]
    assert done["state"] == "done" and done["objective"] == 30


def test_closing_the_page_stops_its_solve(live: LiveServer) -> None:
    job = _long_solve(live)
    pid = _wait_pid(live, job)
    url = f"{live.url}/api/wordsnake/jobs/{job}/events"
    with httpx.stream("GET", url, timeout=30) as resp:
        for line in resp.iter_lines():
            if line.startswith("event: started"):
                break
    # The stream is closed: the server notices and stops the solve within a couple of seconds.
    t0 = time.monotonic()
    while alive(pid) and time.monotonic() - t0 < 20:
        time.sleep(0.05)
    assert not alive(pid), "the solve outlived its page"  # within 20 s of its 120 s limit
    record = live.app.state.jobs.get(job)
    while not record.final and time.monotonic() - t0 < 30:  # its supervisor records the end
        time.sleep(0.05)
    assert record.state == "stopped"


@pytest.mark.slow
def test_a_solve_that_forks_its_flow_child_finishes(live: LiveServer) -> None:
    # 25,000 strings make a network past FORK_MIN_ARCS: the exact method solves its min-cost
    # flow in a forked child. (A worker thread blocked reading sys.stdin once deadlocked that
    # child in multiprocessing's start-up, and the solve sat idle until its time limit.)
    words = "\n".join(random_strings("abcdefghij", 25_000, 1, 3, 8))
    resp = httpx.post(f"{live.url}/api/wordsnake/jobs", json={"words": words, "time_limit": 60})
    t0 = time.monotonic()
    done = events(live, resp.json()["id"], timeout=90)[-1][1]
    assert done["status"] == "OPTIMAL", done
    assert time.monotonic() - t0 < 40


@pytest.mark.slow
def test_the_letterboxed_pages_default_is_the_english_dictionary(live: LiveServer) -> None:
    """The page's default list is the CLI's: common words of a dictionary, no names."""
    from cpwords.core.dictionaries import english_common_words

    data = httpx.get(f"{live.url}/api/letterboxed", params={"box": NYT}, timeout=120).json()
    words, _name = english_common_words(100_000)
    assert data["status"] == "OPTIMAL" and data["solution"]
    assert set(data["solution"]) <= set(words)
    assert data["solution"] == list(cpwords.solve_letterboxed(NYT).solution or [])


def test_page_titles_name_the_page_once_and_a_favicon_is_inline(live: LiveServer) -> None:
    """The home page's title is not "cpwords · cpwords"; no page asks for /favicon.ico."""
    home = httpx.get(live.url + "/").text
    assert "<title>cpwords</title>" in home
    page = httpx.get(live.url + "/truncate").text
    title = page.split("<title>")[1].split("</title>")[0]
    assert title.endswith(" · cpwords") and title.count("cpwords") == 1
    assert 'rel="icon" href="data:image/svg+xml' in page
