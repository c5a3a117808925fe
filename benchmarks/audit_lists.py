"""Random small lists solved as an auditor would, one ``cpwords snake`` process each (issue 46).

The issue found 7 of 60 random ``{a,b,c}`` lists of 56-296 words ending FEASIBLE after 4-20 s of
a 60 s limit. This draws such lists with a seed nobody picks (by default the UTC date and minute,
``202612071026``), runs ``cpwords snake LIST --time-limit LIMIT --json`` on each as a new
process (a quarter of them ``--cyclic``) and prints one JSON line a list, then a summary line::

    python benchmarks/audit_lists.py                       # seed: now, UTC; 60 lists
    python benchmarks/audit_lists.py --seed 202612071026 --lists 60 --time-limit 60

The lists are written to a temporary folder, removed at the end.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def draw_lists(seed: int, count: int) -> list[tuple[list[str], bool]]:
    """The seed's random lists: 56-296 words of 2-8 letters over ``ab`` or ``abc``.

    Parameters
    ----------
    seed : int
        The seed of :class:`random.Random`.
    count : int
        How many lists.

    Returns
    -------
    list of (list of str, bool)
        Each list's words (repeats allowed) and whether it is cyclic (a quarter of them).
    """
    rng = random.Random(seed)
    lists = []
    for _ in range(count):
        n = rng.randint(56, 296)
        alphabet = rng.choice(["ab", "abc"])
        words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(2, 8))) for _ in range(n)]
        lists.append((words, rng.random() < 0.25))
    return lists


def solve(path: Path, cyclic: bool, limit: float) -> dict[str, Any]:
    """``cpwords snake`` on one list as a new process: status, score, bound, gap and wall
    seconds (status ``TIMEOUT`` a minute past the limit, the process killed; ``ERROR`` when it
    printed no JSON)."""
    args = [sys.executable, "-m", "cpwords", "snake", str(path), "--time-limit", str(limit)]
    args += ["--json", *(["--cyclic"] if cyclic else [])]
    t0 = time.monotonic()
    try:
        res = subprocess.run(args, capture_output=True, text=True, timeout=limit + 60)
    except subprocess.TimeoutExpired:
        return {"status": "TIMEOUT", "wall": round(time.monotonic() - t0, 2)}
    wall = round(time.monotonic() - t0, 2)
    try:
        row = json.loads(res.stdout)
    except json.JSONDecodeError:
        return {
            "status": "ERROR",
            "exit": res.returncode,
            "stderr": res.stderr[-200:],
            "wall": wall,
        }
    keys = ("status", "objective", "bound", "gap")
    return {**{k: row.get(k) for k in keys}, "wall": wall}


def main(argv: list[str] | None = None) -> int:
    """Run the audit; exit 0 when every list ended OPTIMAL, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    now = int(time.strftime("%Y%m%d%H%M", time.gmtime()))
    parser.add_argument("--seed", type=int, default=now, help="default: the UTC date and minute")
    parser.add_argument("--lists", type=int, default=60)
    parser.add_argument("--time-limit", type=float, default=60.0)
    opts = parser.parse_args(argv)
    print(json.dumps({"seed": opts.seed}), flush=True)
    walls: list[float] = []
    optimal = 0
    with tempfile.TemporaryDirectory() as folder:
        for i, (words, cyclic) in enumerate(draw_lists(opts.seed, opts.lists)):
            path = Path(folder) / f"list{i}.txt"
            path.write_text("\n".join(words) + "\n", encoding="utf-8")
            row = solve(path, cyclic, opts.time_limit)
            print(json.dumps({"list": i, "words": len(words), "cyclic": cyclic, **row}), flush=True)
            optimal += row["status"] == "OPTIMAL"
            walls.append(row["wall"])
    median = statistics.median(walls) if walls else None
    top = max(walls, default=None)
    print(
        json.dumps(
            {"optimal": optimal, "lists": opts.lists, "median_wall": median, "max_wall": top}
        )
    )
    return 0 if optimal == opts.lists else 1


if __name__ == "__main__":
    sys.exit(main())
