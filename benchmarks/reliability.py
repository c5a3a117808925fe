"""Measure a command's reliability: wall time, the process tree's peak memory, what is left.

Each run starts the command in a session of its own (under ``nice``, with an address-space cap
per process), samples every 0.1 s the resident memory of every process of that session and of
every descendant seen, optionally sends a signal at a given second (SIGINT to the whole process
group, as a terminal's Ctrl-C; SIGTERM and SIGKILL to the command alone), and after the command
ends looks for any process of the run still alive (same pid and start time)::

    python benchmarks/reliability.py run [--signal INT|TERM|KILL --at SECONDS] \\
        [--cap-gb GB] [--timeout SECONDS] --label LABEL -- cpwords snake ...

prints one JSON line (label, command, wall_s, exit, signal, peak_tree_rss_mb, left, and the
last lines of stdout and stderr). ``benchmarks/results/reliability/report.md`` was made from these
lines (``report`` turns a file of them into its tables)::

    python benchmarks/reliability.py report LINES.jsonl
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def _stat(pid: int) -> tuple[int, int, int] | None:
    """(ppid, session, start time) of a live process, None when it is gone or a zombie."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    if fields[0] == "Z":
        return None
    return int(fields[1]), int(fields[3]), int(fields[19])


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _tree(root: int, sid: int, seen: dict[int, int]) -> list[int]:
    """Live processes of the run: in its session, or descendants of a process seen in it."""
    stats = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            st = _stat(int(name))
            if st is not None:
                stats[int(name)] = st
    members = {p for p, (_, s, _) in stats.items() if s == sid}
    members.add(root)
    grew = True
    while grew:
        grew = False
        for p, (pp, _, _) in stats.items():
            if pp in members and p not in members:
                members.add(p)
                grew = True
    live = [p for p in members if p in stats]
    for p in live:
        seen.setdefault(p, stats[p][2])
    return live


def run(
    cmd: list[str],
    label: str,
    sig: str | None,
    at: float | None,
    cap_gb: float,
    timeout: float,
    stdout: str | None = None,
) -> dict[str, Any]:
    cap = int(cap_gb * 2**30)

    def limits() -> None:
        os.setsid()
        os.nice(10)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=limits, text=True
    )
    seen: dict[int, int] = {}
    peak = 0
    sent = None
    out_chunks: list[str] = []
    import threading

    err_chunks: list[str] = []
    readers = [
        threading.Thread(target=lambda: out_chunks.append(proc.stdout.read()), daemon=True),  # type: ignore[union-attr]
        threading.Thread(target=lambda: err_chunks.append(proc.stderr.read()), daemon=True),  # type: ignore[union-attr]
    ]
    for r in readers:
        r.start()
    while proc.poll() is None:
        now = time.perf_counter() - t0
        peak = max(peak, sum(_rss_kb(p) for p in _tree(proc.pid, proc.pid, seen)))
        if sig is not None and at is not None and sent is None and now >= at:
            if sig == "INT":  # as a terminal's Ctrl-C: to the whole foreground process group
                os.killpg(proc.pid, signal.SIGINT)
            else:  # as `kill PID`: to the command alone (its children must follow it)
                proc.send_signal(getattr(signal, f"SIG{sig}"))
            sent = now
        if now > timeout:
            os.killpg(proc.pid, signal.SIGKILL)
            break
        time.sleep(0.1)
    rc = proc.wait()
    wall = time.perf_counter() - t0
    for r in readers:
        r.join(5)
    time.sleep(0.5)  # a child that outlives its parent by less than this is not counted
    left = []
    for p, started in seen.items():
        st = _stat(p)
        if st is not None and st[2] == started and p != proc.pid:
            left.append(p)
    for p in left:  # only processes this run started (same pid and start time)
        with contextlib.suppress(OSError):
            os.kill(p, signal.SIGKILL)
    if stdout:
        Path(stdout).write_text("".join(out_chunks))
    out = [line[:300] for line in "".join(out_chunks).strip().splitlines()]
    err = "".join(err_chunks).strip().splitlines()
    return {
        "label": label,
        "command": " ".join(cmd),
        "signal": sig,
        "signal_at_s": None if sent is None else round(sent, 2),
        "after_signal_s": None if sent is None else round(wall - sent, 2),
        "wall_s": round(wall, 2),
        "exit": rc,
        "peak_tree_rss_mb": round(peak / 1024),
        "processes_seen": len(seen),
        "left": left,
        "stdout_tail": out[-12:],
        "stderr_tail": err[-30:],
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="verb", required=True)
    r = sub.add_parser("run")
    r.add_argument("--label", required=True)
    r.add_argument("--signal", choices=["INT", "TERM", "KILL"])
    r.add_argument("--at", type=float)
    r.add_argument("--cap-gb", type=float, default=10.0)
    r.add_argument("--timeout", type=float, default=900.0)
    r.add_argument("--stdout", help="also write the command's whole stdout to this file")
    r.add_argument("cmd", nargs=argparse.REMAINDER)
    rep = sub.add_parser("report")
    rep.add_argument("path")
    a = ap.parse_args(argv)
    if a.verb == "run":
        cmd = a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd
        print(
            json.dumps(run(cmd, a.label, a.signal, a.at, a.cap_gb, a.timeout, a.stdout)), flush=True
        )
        return
    rows = [json.loads(line) for line in Path(a.path).read_text().splitlines() if line.strip()]
    rows = [row for row in rows if "kind" not in row]  # interrupt_times.py's rows: its report
    print(
        "| run | wall (s) | signal at (s) | exit after it (s) | exit | peak tree RSS (MB) |", end=""
    )
    print(" left |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for row in rows:
        print(
            f"| {row['label']} | {row['wall_s']} | {row['signal_at_s'] or '-'} | "
            f"{row['after_signal_s'] if row['after_signal_s'] is not None else '-'} | "
            f"{row['exit']} | {row['peak_tree_rss_mb']:,} | {len(row['left']) or 'none'} |"
        )


if __name__ == "__main__":
    sys.exit(main())
