"""One command under two source trees, alternated: CPU of the whole process tree and its peak
resident set, with the answer each gave (``docs/reports/engine.md``).

Each run starts ``python -m cpwords COMMAND... --json`` with ``PYTHONPATH`` set to the tree,
writes its output to a temporary file (a pipe read only at the end fills and blocks a large
answer), samples the resident set of the process and its children every 20 ms (psutil) and
reads the CPU of the waited child from ``getrusage``. One JSON line per command::

    python benchmarks/side_by_side.py --old /tmp/old/src --new src --runs 3 \\
        -- snake /work/shared/data/enable1.txt

Medians of CPU and wall time over the runs, the largest peak, the first run's answer (status,
objective or length, bound, certificate verdict), the first run's check and solve seconds, and
the median over the runs of each run's check over its solve (``check_solve``).

Each tree's modules are compiled to bytecode first, into a private cache (``PYTHONPYCACHEPREFIX``,
nothing written into the trees), and the runs read it, as a user's second run does: a machine
that sets ``PYTHONDONTWRITEBYTECODE`` (this one does) otherwise compiles about 22,000 lines of
the package on every run, 0.12 s of CPU. ``--no-bytecode`` measures that way instead.
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


def tree_env(src: str, cache: str | None) -> dict[str, str]:
    """The environment of a run under ``src``: ``PYTHONPATH``, and with a ``cache`` folder the
    tree's bytecode compiled there and read from there (None: as this shell has it)."""
    env = dict(os.environ, PYTHONPATH=src)
    if cache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = cache
        subprocess.run([sys.executable, "-m", "compileall", "-q", src], env=env, check=True)
    return env


def run_once(env: dict[str, str], command: list[str]) -> dict[str, Any]:
    """One run of ``command`` in ``env``: CPU, peak MB, wall time, the answer."""
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


def check_solve(rows: list[dict[str, Any]]) -> float | None:
    """The median over the runs of each run's check seconds over its solve seconds (None when
    a run reports neither): one run's ratio moves by a tenth or more on a 2-core machine."""
    ratios = [r["check"] / r["solve"] for r in rows if r.get("check") and r.get("solve")]
    return round(statistics.median(ratios), 3) if len(ratios) == len(rows) else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="the old source tree (its src folder)")
    parser.add_argument("--new", required=True, help="the new source tree (its src folder)")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument(
        "--no-bytecode", action="store_true", help="compile the package on every run"
    )
    parser.add_argument("command", nargs="+", help="the cpwords command, after --")
    args = parser.parse_args()
    runs: dict[str, list[dict[str, Any]]] = {"old": [], "new": []}
    with tempfile.TemporaryDirectory() as cache:
        envs = {
            label: tree_env(src, None if args.no_bytecode else os.path.join(cache, label))
            for label, src in (("old", args.old), ("new", args.new))
        }
        for _ in range(args.runs):
            for label, env in envs.items():
                runs[label].append(run_once(env, args.command))
    row: dict[str, Any] = {
        "command": args.command,
        "runs": args.runs,
        "bytecode": not args.no_bytecode,
    }
    for label, rows in runs.items():
        row[label] = {
            "cpu": statistics.median(r["cpu"] for r in rows),
            "wall": statistics.median(r["wall"] for r in rows),
            "mb": max(r["mb"] for r in rows),
            "answer": rows[0]["answer"],
            "check": rows[0].get("check"),
            "solve": rows[0].get("solve"),
            "check_solve": check_solve(rows),
        }
    row["cpu_ratio"] = round(row["new"]["cpu"] / row["old"]["cpu"], 2)
    print(json.dumps(row))


if __name__ == "__main__":
    main()
