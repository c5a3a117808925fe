"""Measure ``cpwords serve`` on 127.0.0.1: page loads, Letter Boxed round trips, a bounded load
test, and Wordsnake solves from the page's API (issue 21's targets).

    python benchmarks/serve_bench.py [--out benchmarks/results/serve/serve.json]

Starts ``cpwords serve`` on a free loopback port, sends a bounded number of requests (every loop
has a fixed count and a timeout), and stops the server. Wordsnake rows need ../shared/data
(ENABLE); they are left out without it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from cpwords.bench.runner import machine

NYT = Path(__file__).resolve().parents[2] / "shared" / "data" / "letterboxed" / "nyt-2024.jsonl"
ENABLE = NYT.parents[1] / "enable1.txt"
FALLBACK_BOXES = ["lua-sgc-yhk-zop", "brs-cit-dlp-efn"]
PAGES = ("/", "/letterboxed", "/wordsnake", "/letterpress", "/truncate", "/grid")
LP = {"letters": "ovrkqlwislrecrtgmvpfprzey"}
GRID = {"top": "10000", "L": "2", "P": "2", "plurals": "1"}
#: The other pages answering: (label, path, query); each asked once (it loads its dictionary),
#: then timed 10 times.
ANSWERS = [
    ("Letterpress: the words of a 25-letter bag (web2)", "/letterpress", LP),
    (
        "Letterpress: the best move on a coloured board (web2)",
        "/letterpress",
        {**LP, "colours": "bb...b..r.....r...r.....r"},
    ),
    ("Truncate: the longest chains from 'a' (web2)", "/truncate", {"word": "a"}),
    (
        "Truncate: the longest chains to 'sheathery' (web2)",
        "/truncate",
        {"word": "sheathery", "direction": "to"},
    ),
    (
        "Grid: a hand fill checked (10,000 words)",
        "/grid",
        {**GRID, "action": "check", "t_s1": "de", "t_c": "fa"},
    ),
    (
        "Grid: a board completed from its 4 suffixes",
        "/grid",
        {**GRID, "action": "solve", "t_s1": "de", "t_s2": "il", "t_s3": "ns", "t_s4": "te"},
    ),
    (
        "Grid: the unique puzzles of 10,000 words with plurals",
        "/grid",
        {**GRID, "action": "unique"},
    ),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stats(xs: list[float]) -> dict[str, float]:
    xs = sorted(xs)
    return {
        "n": len(xs),
        "median_ms": 1000 * statistics.median(xs),
        "p95_ms": 1000 * xs[min(len(xs) - 1, int(0.95 * len(xs)))],
        "max_ms": 1000 * xs[-1],
    }


def timed_gets(client: httpx.Client, url: str, n: int, **params: Any) -> list[float]:
    """n requests timed: GET with the query, or POST with it as a form (the answers: a solve
    of seconds runs on POST only)."""
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        resp = client.post(url, data=params) if params else client.get(url)
        out.append(time.perf_counter() - t0)
        resp.raise_for_status()
    return out


async def load_test(base: str, boxes: list[str], total: int, concurrency: int) -> dict[str, Any]:
    sem = asyncio.Semaphore(concurrency)
    lat: list[float] = []
    errors: list[str] = []

    async def one(i: int, client: httpx.AsyncClient) -> None:
        async with sem:
            t0 = time.perf_counter()
            try:
                resp = await client.get(
                    f"{base}/api/letterboxed", params={"box": boxes[i % len(boxes)]}
                )
                if resp.status_code != 200 or not resp.json().get("solution"):
                    errors.append(f"{resp.status_code}")
            except httpx.HTTPError as exc:
                errors.append(type(exc).__name__)
            lat.append(time.perf_counter() - t0)

    t0 = time.perf_counter()
    async with httpx.AsyncClient(timeout=60) as client:
        await asyncio.wait_for(asyncio.gather(*(one(i, client) for i in range(total))), 300)
    wall = time.perf_counter() - t0
    return {
        "requests": total,
        "concurrency": concurrency,
        "answered": len(lat),
        "errors": len(errors),
        "wall_s": wall,
        "throughput_rps": total / wall,
        **stats(lat),
    }


def tree_rss_mib(pid: int) -> float:
    """Resident memory of a process and its children (from /proc), MiB."""
    total = 0
    pids = [pid]
    while pids:
        p = pids.pop()
        try:
            with open(f"/proc/{p}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            with open(f"/proc/{p}/task/{p}/children") as fh:
                pids += [int(c) for c in fh.read().split()]
        except OSError:
            continue
    return total / 1024


def descendants(pid: int) -> list[int]:
    out: list[int] = []
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/task/{p}/children") as fh:
                kids = [int(c) for c in fh.read().split()]
        except OSError:
            continue
        out += kids
        todo += kids
    return out


def follow(base: str, job: str, stop_after: float | None = None) -> dict[str, Any]:
    """Follow a job's events; optionally press Stop after ``stop_after`` seconds."""
    t0 = time.perf_counter()
    first_incumbent = None
    n_progress = 0
    stop_sent = None
    done: dict[str, Any] = {}
    with httpx.stream("GET", f"{base}/api/wordsnake/jobs/{job}/events", timeout=600) as resp:
        kind = ""
        for line in resp.iter_lines():
            now = time.perf_counter() - t0
            if stop_after is not None and stop_sent is None and now >= stop_after:
                stop_sent = time.perf_counter() - t0
                httpx.post(f"{base}/api/wordsnake/jobs/{job}/stop")
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                data = json.loads(line[6:])
                if kind == "progress":
                    n_progress += 1
                    if first_incumbent is None and data.get("incumbent") is not None:
                        first_incumbent = now
                if kind == "done":
                    done = data
                    break
    end = time.perf_counter() - t0
    return {
        "state": done.get("state"),
        "status": done.get("status"),
        "objective": done.get("objective"),
        "bound": done.get("bound"),
        "solve_wall_s": done.get("wall_time"),
        "round_trip_s": end,
        "first_incumbent_s": first_incumbent,
        "progress_events": n_progress,
        "stop_to_done_s": None if stop_sent is None else end - stop_sent,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="benchmarks/results/serve/serve.json")
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--concurrency", type=int, default=20)
    args = ap.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "cpwords", "serve", "--port", str(port), "--max-solves", "2"],
        stdout=subprocess.DEVNULL,
    )
    rows: dict[str, Any] = {"machine": machine(), "date": time.strftime("%Y-%m-%d")}
    try:
        t0 = time.monotonic()
        while True:
            try:
                httpx.get(base + "/", timeout=2)
                break
            except httpx.HTTPError:
                if time.monotonic() - t0 > 60:
                    raise
                time.sleep(0.1)
        rows["idle_rss_mib"] = tree_rss_mib(server.pid)
        boxes = FALLBACK_BOXES
        if NYT.exists():
            with NYT.open() as fh:
                boxes = ["-".join(json.loads(line)["sides"]) for line in fh if line.strip()][:50]
        with httpx.Client(base_url=base, timeout=60) as c:
            t = time.perf_counter()
            c.get("/api/letterboxed", params={"box": boxes[0]}).raise_for_status()
            rows["letterboxed_first_request_s"] = time.perf_counter() - t  # indexes the lexicon
            rows["page_load"] = {p: stats(timed_gets(c, p, 50)) for p in PAGES}
            rows["answers"] = {}
            for label, path, query in ANSWERS:
                t = time.perf_counter()
                c.post(path, data=query).raise_for_status()
                first = time.perf_counter() - t
                rows["answers"][label] = {
                    "first_s": first,
                    **stats(timed_gets(c, path, 10, **query)),
                }
            rows["generate"] = {}
            for level in ("easy", "medium", "hard"):
                times = []
                for seed in range(1, 6):
                    t = time.perf_counter()
                    resp = c.post("/letterboxed/generate", data={"difficulty": level, "seed": seed})
                    times.append(time.perf_counter() - t)
                    assert resp.status_code == 303, resp.text[-300:]
                rows["generate"][level] = stats(times)
            trips = []
            for i in range(50):  # 50 NYT boxes (or the fallback two, repeated): solved and drawn
                t = time.perf_counter()
                resp = c.get("/letterboxed", params={"box": boxes[i % len(boxes)]})
                trips.append(time.perf_counter() - t)
                assert resp.status_code == 200 and 'class="word"' in resp.text
            rows["letterboxed_round_trip"] = {**stats(trips), "boxes": len(set(boxes[:50]))}
        rows["load_test"] = asyncio.run(load_test(base, boxes, args.requests, args.concurrency))
        if ENABLE.exists():
            words = ENABLE.read_text()
            body = {"words": words, "time_limit": 300, "name": "enable1.txt"}
            job = httpx.post(f"{base}/api/wordsnake/jobs", json=body, timeout=60).json()["id"]
            rows["wordsnake_enable"] = {"upload_bytes": len(words), **follow(base, job)}
            time.sleep(2.0)
            rows["wordsnake_enable"]["rss_after_mib"] = tree_rss_mib(server.pid)
            base_rss = tree_rss_mib(server.pid)
            job = httpx.post(f"{base}/api/wordsnake/jobs", json=body, timeout=60).json()["id"]
            res = follow(base, job, stop_after=8.0)
            t = time.perf_counter()
            while time.perf_counter() - t < 10 and tree_rss_mib(server.pid) > base_rss * 1.1 + 20:
                time.sleep(0.05)
            res["rss_back_s"] = time.perf_counter() - t  # after the done event
            res["rss_before_mib"] = base_rss
            res["rss_after_mib"] = tree_rss_mib(server.pid)
            res["processes_left"] = len(descendants(server.pid))
            rows["wordsnake_enable_stopped"] = res
            # Four 10,000-word solves at once (two run, two wait their turn).
            import random

            sample = sorted(random.Random(1).sample(words.split(), 10_000))
            body = {"words": "\n".join(sample), "time_limit": 120}
            ids = [
                httpx.post(f"{base}/api/wordsnake/jobs", json=body).json()["id"] for _ in range(4)
            ]
            t = time.perf_counter()
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(4) as ex:
                outs = list(ex.map(lambda j: follow(base, j), ids))
            rows["wordsnake_4x10k"] = {
                "wall_s": time.perf_counter() - t,
                "states": [o["state"] for o in outs],
                "statuses": [o["status"] for o in outs],
                "round_trips_s": [o["round_trip_s"] for o in outs],
            }
        rows["final_rss_mib"] = tree_rss_mib(server.pid)
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as fh:
        json.dump(rows, fh, indent=1)
    print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
