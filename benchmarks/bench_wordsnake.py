"""Wordsnake benchmark: exact models, the naive circuit and the heuristics, side by side.

Run from the repository root::

    .venv/bin/python benchmarks/bench_wordsnake.py            # full run (about 20 minutes)
    .venv/bin/python benchmarks/bench_wordsnake.py --quick    # n = 100, 200; one seed

Seeded random samples of ENABLE (../shared/data/enable1.txt) at each size n are solved by every
exact backend (letter-hub MIP in HiGHS and SCIP, letter-hub CP-SAT, the naive complete-graph
circuit) and every heuristic, in the same run. A second part finds, for each exact backend, the
largest n (from a ladder) proven optimal within the time limit. Results go to
benchmarks/results/wordsnake.{json,csv,md}.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import statistics
import sys
from pathlib import Path

from _machine import machine

from cpwords.lexicon import load_lexicon, shared_data_dir
from cpwords.puzzles.wordsnake import WordsnakeInstance
from cpwords.result import Status
from cpwords.wordsnake import solve_wordsnake

EXACT = ["auto", "mip", "mip-scip", "cpsat", "cpsat-routes", "naive"]
HEURISTICS = ["layered", "local", "greedy"]


def sample(words: tuple[str, ...], n: int, seed: int) -> WordsnakeInstance:
    return WordsnakeInstance(
        tuple(random.Random(seed).sample(words, n)), name=f"enable-{n}-s{seed}"
    )


def small_alphabet(n: int, seed: int, alphabet: str = "abc") -> WordsnakeInstance:
    """n random strings of 3-8 letters over a small alphabet: long overlaps and many ties."""
    rng = random.Random(1000 * n + seed)
    words = tuple("".join(rng.choice(alphabet) for _ in range(rng.randint(3, 8))) for _ in range(n))
    return WordsnakeInstance(words, name=f"{alphabet}-{n}-s{seed}")


def solve_all(inst: WordsnakeInstance, args: argparse.Namespace) -> list[dict[str, object]]:
    """Every exact method and heuristic on one instance."""
    mine: list[dict[str, object]] = []
    for method in EXACT + HEURISTICS:
        if method == "naive" and inst.n > args.naive_max_n:
            note = f"n > --naive-max-n {args.naive_max_n}"
            mine.append({"instance": inst.name, "n": inst.n, "method": method,
                         "status": "NOT RUN", "note": note})  # fmt: skip
            continue
        row = run_one(inst, method, args)
        mine.append(row)
        print(json.dumps(row), flush=True)
    return mine


def annotate(mine: list[dict[str, object]], family: str) -> None:
    """Every score against the proven optimum of its instance (None when nothing proved it)."""
    proven = [float(r["objective"]) for r in mine if r["status"] == "OPTIMAL"]  # type: ignore[arg-type]
    opt = proven[0] if proven else None
    for r in mine:
        r["family"] = family
        if r.get("objective") is not None:
            score = float(r["objective"])  # type: ignore[arg-type]
            r["optimum"] = opt
            r["gap_to_optimum"] = None if opt is None else (opt - score) / max(1.0, opt)


def run_one(inst: WordsnakeInstance, method: str, args: argparse.Namespace) -> dict[str, object]:
    res = solve_wordsnake(
        inst, method, time_limit=args.time_limit, workers=args.workers, seed=0,
        iterations=args.iterations,
    )  # fmt: skip
    return {
        "instance": inst.name,
        "n": inst.n,
        "method": method,
        "status": res.status.value,
        "objective": res.objective,
        "bound": res.bound,
        "gap": res.gap,
        "wall_time": round(res.wall_time, 4),
        "verified": res.verified,
        "rounds": res.solver_info.get("rounds"),
        "cuts": res.solver_info.get("cuts"),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 200, 500, 1000, 2000])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--iterations", type=int, default=20, help="layered-greedy iterations")
    ap.add_argument("--naive-max-n", type=int, default=1000,
                    help="skip the naive n^2 circuit above this n (GBs of model)")  # fmt: skip
    ap.add_argument("--ladder", type=int, nargs="*",
                    default=[1000, 2000, 5000, 10000, 15000, 20000])  # fmt: skip
    ap.add_argument("--small-alphabet-sizes", type=int, nargs="*", default=[50, 100, 200],
                    help="sizes of the random 'abc'-string family")  # fmt: skip
    ap.add_argument("--parts", nargs="+", choices=["main", "ladder"], default=["main", "ladder"],
                    help="which parts to run")  # fmt: skip
    ap.add_argument("--reuse-rows", type=Path, nargs="*", default=[],
                    help="main rows from the printed output of an earlier run")  # fmt: skip
    ap.add_argument("--quick", action="store_true", help="n = 100, 200; seed 0; no ladder")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/wordsnake"))
    args = ap.parse_args()
    if args.quick:
        args.sizes, args.seeds, args.ladder = [100, 200], [0], []
        args.small_alphabet_sizes = [50]
    data = shared_data_dir()
    if data is None:
        print("bench_wordsnake: ../shared/data is absent; nothing to run", file=sys.stderr)
        return 2
    enable = load_lexicon(data / "enable1.txt").words
    info = machine()
    rows: list[dict[str, object]] = []
    work = [("enable", sample(enable, n, seed)) for n in args.sizes for seed in args.seeds]
    work += [("abc", small_alphabet(n, s)) for n in args.small_alphabet_sizes for s in args.seeds]
    reused: dict[str, list[dict[str, object]]] = {}
    reused_ladder: dict[tuple[str, int], dict[str, object]] = {}
    for path in args.reuse_rows:  # rows printed by earlier runs of this script
        for line in path.read_text().splitlines():
            row = json.loads(line) if line.startswith("{") else None
            if row and "ladder" in row:
                reused_ladder[(str(row.pop("ladder")), int(row["n"]))] = row
            elif row:
                reused.setdefault(str(row["instance"]), []).append(row)
    for family, inst in work if "main" in args.parts else []:
        mine = reused.get(inst.name) or solve_all(inst, args)
        annotate(mine, family)
        rows.extend(mine)
    ladder: dict[str, list[dict[str, object]]] = {}
    for method in EXACT if "ladder" in args.parts else []:
        ladder[method] = []
        for n in args.ladder:
            if method == "naive" and n > args.naive_max_n:
                break
            row = reused_ladder.get((method, n)) or run_one(sample(enable, n, 0), method, args)
            ladder[method].append(row)
            print(json.dumps({"ladder": method, **row}), flush=True)
            if row["status"] != Status.OPTIMAL.value:
                break
    info["loadavg_end"] = os.getloadavg()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "machine": info,
        "args": {k: str(v) for k, v in vars(args).items()},
        "rows": rows,
        "ladder": ladder,
    }
    args.out.with_suffix(".json").write_text(json.dumps(payload, indent=1))
    keys = sorted({k for r in rows for k in r})
    with args.out.with_suffix(".csv").open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)
    args.out.with_suffix(".md").write_text(markdown(rows, ladder, info, args))
    print(markdown(rows, ladder, info, args))
    return 0


def _median(xs: list[float]) -> float | None:
    return statistics.median(xs) if xs else None


def _family_tables(rows: list[dict], family: str, sizes: list[int], title: str) -> list[str]:  # type: ignore[type-arg]
    mine = [r for r in rows if r.get("family") == family]
    lines = [
        f"## {title}: exact models",
        "",
        "Median wall time in seconds over the seeds, and how many runs were proven OPTIMAL.",
        "",
        "| n | " + " | ".join(EXACT) + " | naive / auto time |",
        "|---|" + "---|" * len(EXACT) + "---|",
    ]
    for n in sizes:
        cells, med, unproven = [], {}, {}
        for m in EXACT:
            rs = [r for r in mine if r["n"] == n and r["method"] == m and r["status"] != "NOT RUN"]
            if not rs:
                cells.append("not run")
                continue
            t = _median([float(r["wall_time"]) for r in rs])
            proven = sum(r["status"] == "OPTIMAL" for r in rs)
            med[m], unproven[m] = t, proven < len(rs)
            cells.append(f"{t:.3f} ({proven}/{len(rs)})")
        ratio = "-"
        if "naive" in med and "auto" in med and med["auto"]:
            ratio = f"{'>= ' if unproven['naive'] else ''}{med['naive'] / med['auto']:.0f}x"
        lines.append(f"| {n} | " + " | ".join(cells) + f" | {ratio} |")
    lines += [
        "",
        f"## {title}: heuristics",
        "",
        "Median score as % of the proven optimum (instances without a proof are left out), "
        "and median time in seconds.",
        "",
        "| n | optimum (median) | " + " | ".join(HEURISTICS) + " |",
        "|---|---|" + "---|" * len(HEURISTICS),
    ]
    for n in sizes:
        opts = [
            r["optimum"] for r in mine if r["n"] == n and r["method"] == "auto" and r.get("optimum")
        ]
        cells = []
        for h in HEURISTICS:
            rs = [r for r in mine if r["n"] == n and r["method"] == h and r.get("optimum")]
            pct = _median([100 * float(r["objective"]) / float(r["optimum"]) for r in rs])
            t = _median([float(r["wall_time"]) for r in mine if r["n"] == n and r["method"] == h])
            cells.append("-" if pct is None else f"{pct:.1f} % ({t:.3f} s)")
        lines.append(f"| {n} | {_median(opts) or '-'} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def markdown(rows, ladder, info, args) -> str:  # type: ignore[no-untyped-def]
    lines = [
        "# Wordsnake benchmark",
        "",
        f"Machine: {info['nproc']} cores, Python {info['python']}, OR-Tools {info['ortools']}, "
        f"load average {info['loadavg_start'][0]:.2f} at start, "
        f"{info.get('loadavg_end', (0,))[0]:.2f} at end, {info['date']}. "
        f"Seeds {args.seeds}; time limit {args.time_limit} s per solve, {args.workers} workers. "
        "Command: `python benchmarks/bench_wordsnake.py`. `auto` is the default `exact` method.",
        "",
    ]
    if args.reuse_rows:
        lines += [
            "Rows were merged from earlier runs of this script on the same machine "
            f"(`--reuse-rows {' '.join(p.name for p in args.reuse_rows)}`); the load above is "
            "this run's, and the earlier runs saw load averages of 3.5-4 from other jobs.",
            "",
        ]
    lines += _family_tables(rows, "enable", args.sizes, "Random samples of ENABLE")
    lines += _family_tables(
        rows, "abc", args.small_alphabet_sizes, "Random strings of 3-8 letters over 'abc'"
    )
    if ladder:
        lines += [f"## Largest n proven within {args.time_limit:.0f} s (ENABLE, seed 0)", "",
                  "| backend | ladder (n: status, time) | largest proven |",
                  "|---|---|---|"]  # fmt: skip
        for m, rs in ladder.items():
            steps = ", ".join(f"{r['n']}: {r['status']} {float(r['wall_time']):.1f} s" for r in rs)
            best = max((int(r["n"]) for r in rs if r["status"] == "OPTIMAL"), default=None)
            lines.append(f"| {m} | {steps} | {best if best is not None else '-'} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
