"""One command under two source trees, alternated: CPU of the whole process tree and its peak
resident set, with the answer each gave (``docs/reports/engine.md``).

Each run starts ``python -m cpwords COMMAND... --json`` with ``PYTHONPATH`` set to the tree,
writes its output to a temporary file (a pipe read only at the end fills and blocks a large
answer), samples the resident set of the process and its children every 20 ms (psutil) and
reads the CPU of the waited child from ``getrusage``. One JSON line per command::

    python benchmarks/side_by_side.py --old /tmp/old/src --new src --runs 3 \\
        -- snake /work/shared/data/enable1.txt

Medians of CPU and wall time over the runs, the largest peak, the first run's answer (status,
objective or length, bound, certificate verdict) and the check's and solve's seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import psutil


def run_once(src: str, command: list[str]) -> dict[str, Any]:
    """One run of ``command`` with ``PYTHONPATH=src``: CPU, peak MB, wall time, the answer."""
    env = dict(os.environ, PYTHONPATH=src)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        argv = [sys.executable, "-m", "cpwords", *command, "--json"]
        proc = subprocess.Popen(argv, env=env, stdout=out, stderr=err)
        peak = _watch(proc)
        wall = time.perf_counter() - start
        out.seek(0)
        text = out.read()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"cpu": cpu, "mb": peak / 2**20, "wall": wall, **_answer(text)}


def _watch(proc: subprocess.Popen[bytes]) -> int:
    """The largest sum of resident sets of ``proc`` and its children until it exits."""
    peak = 0
    watched = psutil.Process(proc.pid)
    while proc.poll() is None:
        try:
            tree = [watched, *watched.children(recursive=True)]
            peak = max(peak, sum(p.memory_info().rss for p in tree))
        except psutil.Error:
            pass
        time.sleep(0.02)
    return peak


def _answer(text: bytes) -> dict[str, Any]:
    """The status, objective (or length), bound, verdict and times of one JSON answer."""
    try:
        row = json.loads(text)
    except ValueError:
        return {"answer": None}
    info = row.get("solver_info") or {}
    info = info.get("wordsnake", info) if isinstance(info.get("wordsnake"), dict) else info
    answer = [row.get("status"), row.get("objective", row.get("length")), row.get("bound")]
    return {
        "answer": [*answer, info.get("certificate_check")],
        "check": info.get("certificate_check_time"),
        "solve": info.get("solve_time"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="the old source tree (its src folder)")
    parser.add_argument("--new", required=True, help="the new source tree (its src folder)")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("command", nargs="+", help="the cpwords command, after --")
    args = parser.parse_args()
    runs: dict[str, list[dict[str, Any]]] = {"old": [], "new": []}
    for _ in range(args.runs):
        for label, src in (("old", args.old), ("new", args.new)):
            runs[label].append(run_once(src, args.command))
    row: dict[str, Any] = {"command": args.command, "runs": args.runs}
    for label, rows in runs.items():
        row[label] = {
            "cpu": statistics.median(r["cpu"] for r in rows),
            "wall": statistics.median(r["wall"] for r in rows),
            "mb": max(r["mb"] for r in rows),
            "answer": rows[0]["answer"],
            "check": rows[0].get("check"),
            "solve": rows[0].get("solve"),
        }
    row["cpu_ratio"] = round(row["new"]["cpu"] / row["old"]["cpu"], 2)
    print(json.dumps(row))


if __name__ == "__main__":
    main()
