"""Ctrl-C at random moments of a command: does it answer, and how soon after the signal?

Each run starts the command in a session of its own (an address-space cap per process), sends
SIGINT at a random moment (to the whole process group, as a terminal's Ctrl-C; ``--to-process``:
to the command alone, as ``timeout -s INT`` does) and records the exit status, whether an
ordering was printed (``--json``'s ``solution``), the status, ``interrupted``, the bound and
whether it was checked, and the seconds from the signal to the exit::

    python benchmarks/interrupt_times.py run --runs 20 --until 6 --label enable \\
        -- cpwords snake /work/shared/data/enable1.txt --json > enable.jsonl

``--worker-words FILE`` runs the web page's solve instead: ``python -m cpwords.serve.worker``
with the page's job for the words of FILE (the default method, the page's certificate), which
the page's Stop and its closing interrupt with SIGINT (``cpwords.serve.jobs``); a run then
counts as answered when the worker sent its ``result`` (the page's grace is 1.5 s)::

    python benchmarks/interrupt_times.py run --runs 20 --until 6 --label "page ENABLE" \
        --worker-words /work/shared/data/enable1.txt

``--code LABEL=SRC`` (repeated) runs each moment once per source tree, interleaved (old and
new code under the same load), with ``PYTHONPATH=SRC``; ``LABEL`` is appended to ``--label``::

    python benchmarks/interrupt_times.py run --runs 20 --until 6 --label ENABLE \
        --code before=/tmp/before/src --code after=src -- cpwords snake enable1.txt --json

The moments are drawn uniformly between ``--from`` (0.5 s) and ``--until`` (the run's length
on this machine), sorted, one run each, one after the other. ``report`` turns files of these
lines into one table row per label (medians and the worst)::

    python benchmarks/interrupt_times.py report enable.jsonl french.jsonl

The recorded runs (issue 48) are in ``benchmarks/results/reliability/reliability.jsonl`` (kind
``"interrupt moment"``) and their table and commands in that folder's ``report.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import select
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

#: The ``kind`` of this script's rows (``results/reliability/reliability.jsonl`` holds them
#: beside ``reliability.py``'s).
KIND = "interrupt moment"


def _cap(gb: float) -> Any:
    """A ``preexec_fn`` capping each process's address space at ``gb`` GB."""

    def limit() -> None:
        size = int(gb * 1e9)
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    return limit


def _row(out: str) -> dict[str, Any]:
    """The command's JSON row (the last line that parses), or an empty dict."""
    for line in reversed(out.strip().splitlines()):
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict):
            return row
    return {}


def _env(src: str | None) -> dict[str, str] | None:
    """The environment of a run of the source tree ``src`` (None: this one's)."""
    return None if src is None else {**os.environ, "PYTHONPATH": str(Path(src).resolve())}


def one_run(
    command: list[str], at: float, group: bool, cap_gb: float, timeout: float, src: str | None
) -> dict:
    """Run ``command``, send SIGINT ``at`` seconds after its start, and describe the outcome."""
    t0 = time.monotonic()
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_cap(cap_gb),
        env=_env(src),
    )
    sent: float | None = None
    try:
        proc.wait(max(0.0, at - (time.monotonic() - t0)))
    except subprocess.TimeoutExpired:
        sent = time.monotonic()
        if group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    end = time.monotonic()
    row = _row(out)
    info = row.get("solver_info") or {}
    solution = row.get("solution")
    return {
        "at": round(at, 3),
        "signalled": sent is not None,
        "after_signal_s": None if sent is None else round(end - sent, 3),
        "wall_s": round(end - t0, 3),
        "exit": proc.returncode,
        "ordering": bool(solution),
        "status": row.get("status"),
        "interrupted": row.get("interrupted"),
        "objective": row.get("objective"),
        "bound": row.get("bound"),
        "bound_checked": info.get("bound_checked"),
        "stderr_tail": err.strip().splitlines()[-2:],
    }


def one_worker_run(
    words: list[str], at: float, cap_gb: float, timeout: float, src: str | None
) -> dict:
    """The page's solve of ``words`` (its worker process), SIGINT ``at`` seconds after its
    start as the page's Stop sends it; what the worker answered, and when."""
    job = {"words": words, "name": "list", "cyclic": False, "proper": False}
    job.update(method="exact", time_limit=600, workers=1, seed=0)
    t0 = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cpwords.serve.worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
        preexec_fn=_cap(cap_gb),
        env=_env(src),
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(job) + "\n")
    proc.stdin.flush()
    sent: float | None = None
    kind, data = None, None
    while True:
        if sent is None and time.monotonic() - t0 >= at:
            sent = time.monotonic()
            proc.send_signal(signal.SIGINT)  # as cpwords.serve.jobs does
        ready, _, _ = select.select([proc.stdout], [], [], 0.01)
        if not ready:
            if time.monotonic() - t0 > timeout:
                break
            continue
        line = proc.stdout.readline()
        if not line:
            break
        message = json.loads(line)
        if message["kind"] != "progress":
            kind, data = message["kind"], message["data"]
            break
    end = time.monotonic()
    proc.stdin.close()
    proc.wait()
    row = data if isinstance(data, dict) else {}
    info = row.get("solver_info") or {}
    return {
        "at": round(at, 3),
        "signalled": sent is not None,
        "after_signal_s": None if sent is None else round(end - sent, 3),
        "wall_s": round(end - t0, 3),
        "exit": 130 if kind == "result" and info.get("interrupted") else kind,
        "ordering": bool(row.get("solution")),
        "status": row.get("status"),
        "interrupted": info.get("interrupted"),
        "objective": row.get("objective"),
        "bound": row.get("bound"),
        "bound_checked": info.get("bound_checked"),
        "stderr_tail": [] if kind == "result" else [str(kind), str(data)[:200]],
    }


def run(args: argparse.Namespace) -> None:
    """The ``run`` subcommand: one JSON line per run on standard output."""
    rng = random.Random(args.seed)
    moments = sorted(rng.uniform(args.start, args.until) for _ in range(args.runs))
    words = Path(args.worker_words).read_text().split() if args.worker_words else None
    codes = [code.split("=", 1) for code in args.code] or [["", None]]
    for at in moments:
        for name, src in codes:
            if words is not None:
                line = one_worker_run(words, at, args.cap_gb, args.timeout, src)
            else:
                group = not args.to_process
                line = one_run(args.command, at, group, args.cap_gb, args.timeout, src)
            line["label"] = f"{args.label} {name}".strip()
            print(json.dumps({"kind": KIND, **line}), flush=True)


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}" if values else "-"


def report(args: argparse.Namespace) -> None:
    """The ``report`` subcommand: one markdown row per label."""
    rows: dict[str, list[dict[str, Any]]] = {}
    for path in args.files:
        for text in Path(path).read_text().splitlines():
            line = json.loads(text) if text.strip() else {}
            if line.get("kind") == KIND:  # reliability.py's rows share the file
                rows.setdefault(line["label"], []).append(line)
    print(
        "| label | runs | signalled | ordering printed | exit 130 | statuses | "
        "signal to exit, median s | worst s | within 1 s |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for label, lines in rows.items():
        hit = [r for r in lines if r["signalled"]]
        delays = [r["after_signal_s"] for r in hit]
        statuses: dict[str, int] = {}
        for r in hit:
            key = f"{r['status']}{' (unchecked)' if r['bound_checked'] is False else ''}"
            statuses[key] = statuses.get(key, 0) + 1
        print(
            f"| {label} | {len(lines)} | {len(hit)} "
            f"| {sum(r['ordering'] for r in hit)} of {len(hit)} "
            f"| {sum(r['exit'] == 130 for r in hit)} "
            f"| {', '.join(f'{k} {v}' for k, v in sorted(statuses.items()))} "
            f"| {_median(delays)} | {max(delays):.2f} "
            f"| {sum(d <= 1.0 for d in delays)} of {len(hit)} |"
            if hit
            else f"| {label} | {len(lines)} | 0 | - | - | - | - | - | - |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("run")
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--from", dest="start", type=float, default=0.5)
    p.add_argument("--until", type=float, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--label", required=True)
    p.add_argument("--to-process", action="store_true")
    p.add_argument("--cap-gb", type=float, default=12.0)
    p.add_argument("--timeout", type=float, default=300.0)
    p.add_argument("--worker-words", metavar="FILE", default=None)
    p.add_argument("--code", metavar="LABEL=SRC", action="append", default=[])
    p.add_argument("command", nargs=argparse.REMAINDER)
    r = sub.add_parser("report")
    r.add_argument("files", nargs="+")
    args = parser.parse_args()
    if args.cmd == "run":
        args.command = [a for a in args.command if a != "--"]
        if not args.command and not args.worker_words:
            sys.exit("no command given")
        run(args)
    else:
        report(args)


if __name__ == "__main__":
    main()
