"""The server is safe by default (issue 34, items 5-11): other sites' pages, rebound names,
a full queue, costly GETs, slow clients and bad JSON are refused in one line, never served.

Through the ASGI test client (addressed to http://127.0.0.1:8000, as a page of ours is) and,
for the slow clients, one real uvicorn run with the server's own configuration.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from cpwords.serve.app import Settings, create_app
from cpwords.serve.jobs import Job, JobManager
from cpwords.wordsnake.spec import random_strings

LOCAL = "http://127.0.0.1:8000"
JOBS = "/api/wordsnake/jobs"
FIVE = "run\nnausea\nseasick\nsickle\nlemon\n"
EVIL = "http://evil.example"


@pytest.fixture
def client() -> Iterator[TestClient]:
    """The application (one solve at a time, one waiting), addressed as 127.0.0.1:8000."""
    app = create_app(Settings(max_solves=1, max_queue=1, grace=1.0))
    with TestClient(app, base_url=LOCAL) as c:
        yield c


def one_line(resp: Any) -> str:
    """The ``{"error": ...}`` line of a refusal (one line, no traceback)."""
    msg = resp.json()["error"]
    assert isinstance(msg, str) and "\n" not in msg and "Traceback" not in msg
    return msg


def jobs_of(client: TestClient) -> JobManager:
    jobs: JobManager = client.app.state.jobs  # type: ignore[attr-defined]
    return jobs


def wait_final(job: Job, patience: float = 60.0) -> None:
    t0 = time.monotonic()
    while not job.final:
        assert time.monotonic() - t0 < patience, "the solve did not end"
        time.sleep(0.05)


# ---- 5. Stop after the end ---------------------------------------------------------------------


def test_stop_after_the_solve_ended_keeps_the_proven_result(client: TestClient) -> None:
    resp = client.post(JOBS, json={"words": FIVE, "time_limit": 30})
    assert resp.status_code == 202
    job = jobs_of(client).get(resp.json()["id"])
    assert job is not None
    wait_final(job)
    assert job.state == "done"
    stop = client.post(f"{JOBS}/{job.id}/stop")
    assert stop.status_code == 200 and stop.json()["state"] == "done"
    row = client.get(f"{JOBS}/{job.id}/result.json").json()
    assert row["status"] == "OPTIMAL" and row["interrupted"] is False and row["n"] == 5
    assert job.spec["words"] == []  # the finished job let its list go


def test_a_late_stop_racing_the_answer_does_not_mark_it_interrupted() -> None:
    """Stop pressed while the answer was on its way: the proven answer stays 'done'."""
    manager = JobManager(max_running=1)
    job = Job(id="1", spec={"words": ["a"]}, n=1, state="running", stop_requested=True)
    manager._finish(job, ("result", {"status": "OPTIMAL", "solver_info": {}}), 0)
    assert job.state == "done" and not job.interrupted
    job = Job(id="2", spec={"words": ["a"]}, n=1, state="running", stop_requested=True)
    stopped = {"status": "FEASIBLE", "solver_info": {"interrupted": True}}
    manager._finish(job, ("result", stopped), 0)
    assert job.state == "stopped" and job.interrupted


# ---- 6. Cross-site requests --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "body"),
    [
        ({"Content-Type": "text/plain", "Origin": EVIL}, '{"words":"run\\nnausea"}'),
        ({"Content-Type": "application/x-www-form-urlencoded", "Origin": EVIL}, "words=run"),
        ({"Content-Type": "multipart/form-data; boundary=x", "Origin": EVIL}, "--x--"),
        ({"Content-Type": "application/json", "Origin": EVIL}, json.dumps({"words": FIVE})),
        ({"Content-Type": "application/json", "Origin": "null"}, json.dumps({"words": FIVE})),
        ({"Content-Type": "text/plain", "Sec-Fetch-Site": "cross-site"}, "{}"),
        ({"Content-Type": "application/json", "Origin": "http://127.0.0.1:9999"}, "{}"),
    ],
)
def test_another_sites_page_cannot_start_a_solve(
    client: TestClient, headers: dict[str, str], body: str
) -> None:
    resp = client.post(JOBS, content=body, headers=headers)
    assert resp.status_code == 403 and "another site" in one_line(resp)
    assert jobs_of(client).running() == 0
    # Nor stop one, nor run a page's solve.
    assert client.post(f"{JOBS}/x/stop", headers=headers).status_code == 403
    resp = client.post("/grid", data={"action": "unique"}, headers={"Origin": EVIL})
    assert resp.status_code == 403


def test_the_solve_api_takes_json_only(client: TestClient) -> None:
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        resp = client.post(
            JOBS, content=json.dumps({"words": FIVE}), headers={"Content-Type": kind}
        )
        assert resp.status_code == 415 and "application/json" in one_line(resp)


def test_the_pages_own_requests_are_accepted(client: TestClient) -> None:
    """What the browser sends from our page: Origin and Sec-Fetch-Site name this server."""
    own = {"Origin": LOCAL, "Sec-Fetch-Site": "same-origin"}
    resp = client.post(JOBS, json={"words": FIVE}, headers=own)
    assert resp.status_code == 202
    job = jobs_of(client).get(resp.json()["id"])
    assert job is not None
    wait_final(job)
    assert client.post(f"{JOBS}/{job.id}/stop", headers=own).status_code == 200


# ---- 7. DNS rebinding ---------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example"])
def test_a_request_addressed_to_another_name_is_refused(client: TestClient, host: str) -> None:
    for path in ("/", "/api/status", f"{JOBS}/1-x/result.json"):
        resp = client.get(path, headers={"Host": host})
        assert resp.status_code == 400, path
    resp = client.post(JOBS, json={"words": FIVE}, headers={"Host": host})
    assert resp.status_code == 400 and jobs_of(client).running() == 0


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST"])
def test_this_machines_names_are_served(client: TestClient, host: str) -> None:
    assert client.get("/api/status", headers={"Host": host}).status_code == 200


def test_more_names_are_allowed_when_asked() -> None:
    from cpwords.serve.guard import allowed_hosts

    app = create_app(Settings(allowed_hosts=allowed_hosts("0.0.0.0", ["pc.lan"])))
    with TestClient(app, base_url="http://pc.lan:8000") as c:
        assert c.get("/api/status").status_code == 200
        assert c.get("/api/status", headers={"Host": "evil.example"}).status_code == 400


# ---- 8. The queue's cap --------------------------------------------------------------------------


def test_a_full_queue_answers_429_with_the_reason(client: TestClient) -> None:
    long = "\n".join(random_strings("ab", 1000, 1, 6, 12))
    first = client.post(JOBS, json={"words": long, "method": "cpsat-routes", "time_limit": 120})
    assert first.status_code == 202
    waiting = client.post(JOBS, json={"words": FIVE})
    assert waiting.status_code == 202 and waiting.json()["position"] == 1
    refused = client.post(JOBS, json={"words": FIVE})
    assert refused.status_code == 429 and "busy" in one_line(refused)
    assert "1 waiting" in one_line(refused) and refused.headers["retry-after"]
    # Room again once the waiting one is stopped.
    client.post(f"{JOBS}/{waiting.json()['id']}/stop")
    again = client.post(JOBS, json={"words": FIVE})
    assert again.status_code == 202
    for job_id in (first.json()["id"], again.json()["id"]):
        client.post(f"{JOBS}/{job_id}/stop")


def test_the_pages_solves_wait_in_a_bounded_line() -> None:
    import asyncio

    from starlette.exceptions import HTTPException

    from cpwords.serve.routes.common import Slots

    async def scenario() -> int:
        slots = Slots(running=1, waiting=1)
        held = asyncio.Event()
        release = asyncio.Event()

        async def hold() -> None:
            async with slots.hold():
                held.set()
                await release.wait()

        first = asyncio.ensure_future(hold())
        await held.wait()
        second = asyncio.ensure_future(hold())  # waits in line
        await asyncio.sleep(0)
        try:
            async with slots.hold():
                pass
        except HTTPException as exc:
            code = exc.status_code
        release.set()
        await asyncio.gather(first, second)
        return code

    assert asyncio.run(scenario()) == 503


# ---- 9. Costly GETs ---------------------------------------------------------------------------


@pytest.fixture
def no_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any solve of seconds fails the test (the GET must not run it)."""
    import cpwords

    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a GET ran a solve")

    for name in ("design_grid_puzzles", "solve_grid", "best_letterpress_move", "generate_boxes"):
        monkeypatch.setattr(cpwords, name, forbidden)


LP = {"letters": "ovrkqlwislrecrtgmvpfprzey", "colours": "bb...b..r.....r...r.....r"}
GRID = {"top": "10000", "L": "2", "P": "2", "plurals": "1"}


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/api/grid", {**GRID, "action": "unique"}),
        ("/api/grid", {**GRID, "action": "solve"}),
        ("/api/letterpress", LP),
    ],
)
def test_a_costly_json_get_is_refused(
    client: TestClient, no_solve: None, path: str, params: dict[str, str]
) -> None:
    resp = client.get(path, params=params)
    assert resp.status_code == 405 and "POST" in one_line(resp)
    assert "POST" in resp.headers["allow"]


@pytest.mark.slow
def test_a_costly_page_get_shows_the_query_unsolved(client: TestClient, no_solve: None) -> None:
    resp = client.get("/grid", params={**GRID, "action": "unique"})
    assert resp.status_code == 200 and 'id="pending"' in resp.text
    assert 'id="unique-list"' not in resp.text and 'formmethod="post"' in resp.text
    resp = client.get("/letterpress", params=LP)
    assert resp.status_code == 200 and 'id="pending"' in resp.text
    assert 'id="swing"' not in resp.text and 'method="post"' in resp.text
    # A bad board is still refused on GET, in one line.
    resp = client.get("/letterpress", params={"letters": "abc", "colours": "bbx"})
    assert resp.status_code == 400 and "unknown colour code" in resp.text
    assert client.get("/letterboxed/generate", params={"seed": 3}).status_code == 405


@pytest.mark.slow
def test_the_costly_work_runs_on_the_pages_post(client: TestClient) -> None:
    own = {"Origin": LOCAL, "Sec-Fetch-Site": "same-origin"}
    resp = client.post("/api/grid", data={**GRID, "action": "unique"}, headers=own)
    first = resp.json()
    assert resp.status_code == 200 and first["complete"] and isinstance(first["unique"], list)
    resp = client.post(
        "/api/grid", json={"top": 10000, "L": 2, "P": 2, "plurals": True, "action": "unique"}
    )
    assert resp.status_code == 200 and resp.json()["unique"] == first["unique"]
    resp = client.post(
        "/letterboxed/generate", data={"seed": "3"}, headers=own, follow_redirects=False
    )
    assert resp.status_code == 303 and "box=" in resp.headers["location"]


# ---- 10. Slow clients -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def strict() -> Iterator[tuple[str, int]]:
    """A real uvicorn server with run()'s configuration and a 1 s request deadline."""
    import uvicorn

    from cpwords.serve.server import uvicorn_config

    settings = Settings(request_timeout=1.0)
    server = uvicorn.Server(uvicorn_config(create_app(settings), "127.0.0.1", 0, settings))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    t0 = time.monotonic()
    while not server.started:
        assert time.monotonic() - t0 < 30 and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    yield "127.0.0.1", server.servers[0].sockets[0].getsockname()[1]
    server.should_exit = True
    thread.join(10)


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (60 s at most)."""
    sock.settimeout(60)
    out = b""
    while chunk := sock.recv(65536):
        out += chunk
    return out


def test_a_body_that_never_arrives_is_408_and_closed(strict: tuple[str, int]) -> None:
    with socket.create_connection(strict) as sock:
        sock.sendall(
            b"POST /api/wordsnake/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{}"
        )
        reply = read_all(sock)  # ends: the server closed the connection
    assert reply.startswith(b"HTTP/1.1 408") and b"did not arrive" in reply


def test_a_head_that_never_ends_is_closed(strict: tuple[str, int]) -> None:
    with socket.create_connection(strict) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # no blank line: never ends
        assert read_all(sock) == b""  # closed without an answer
    with socket.create_connection(strict) as sock:  # nothing sent at all
        assert read_all(sock) == b""


def test_a_prompt_client_is_served(strict: tuple[str, int]) -> None:
    with socket.create_connection(strict) as sock:
        sock.sendall(b"GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert read_all(sock).startswith(b"HTTP/1.1 200")


# ---- 11. Bad JSON -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("[" * 100_000 + "]" * 100_000, "not JSON"),
        ('{"words": "run", "time_limit": 1' + "0" * 400 + "}", "time limit"),
        ('{"words": "run", "time_limit": 1' + "0" * 5000 + "}", "not JSON"),
        ('{"words": "run", "time_limit": 1e400}', "time limit"),
        ('{"words": "run", "time_limit": NaN}', "time limit"),
        ('{"words": "run", "cyclic": "false"}', "'cyclic' must be true or false"),
        ('{"words": "run", "proper": "no"}', "'proper' must be true or false"),
        ('{"words": "run", "cyclic": 0}', "'cyclic' must be true or false"),
        ('{"words": "run", "time_limit": true}', "'time_limit' must be a number"),
        ('{"words": "run", "time_limit": "5"}', "'time_limit' must be a number"),
        ('{"words": 5}', "'words' must be a string"),
        ('{"words": ["run"]}', "'words' must be a string"),
        ('{"words": "run", "method": {"a": 1}}', "'method' must be a string"),
        ('{"words": "run", "lexicon": 1}', "'lexicon' must be a string or null"),
        ('{"words": "run", "timelimit": 5}', "unknown key 'timelimit'"),
        ('["run"]', "not a JSON object"),
        ('{"words": "run"', "not JSON"),
        (b'{"words": "\xff"}', "not JSON"),
    ],
)
def test_bad_json_is_400_in_one_line(client: TestClient, body: str | bytes, expected: str) -> None:
    resp = client.post(JOBS, content=body, headers={"Content-Type": "application/json"})
    assert resp.status_code == 400 and expected in one_line(resp)
    assert jobs_of(client).running() == 0


def test_bad_json_to_a_page_is_400_too(client: TestClient) -> None:
    for body in ("[" * 100_000, '{"top": [1]}', '["a"]'):
        resp = client.post("/api/grid", content=body, headers={"Content-Type": "application/json"})
        assert resp.status_code == 400 and one_line(resp)
