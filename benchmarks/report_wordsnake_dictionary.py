"""Summarise the dictionary-scale Wordsnake study (rows of `cpwords bench --isolate`) as markdown.

    cpwords bench benchmarks/suites/wordsnake-dictionary.toml --isolate --jobs 1 \\
        --out benchmarks/results/wordsnake-dictionary/wordsnake-dictionary.jsonl
    python benchmarks/report_wordsnake_dictionary.py \\
        benchmarks/results/wordsnake-dictionary/wordsnake-dictionary.jsonl \\
        > benchmarks/results/wordsnake-dictionary/report.md

Medians over seeds; ratios are today's explicit model (``mip``) over the default (``auto``),
from the same run.
"""

from __future__ import annotations

import re
import statistics
import sys
from collections import defaultdict

from cpwords.bench.results import read_rows


def _group(name: str) -> str:
    return re.sub(r"-seed\d+$", "", name)


def _fmt(x: float | None, unit: str = "") -> str:
    if x is None:
        return "-"
    return f"{x:,.3g}{unit}" if x < 100 else f"{x:,.0f}{unit}"


def main(path: str) -> None:
    rows = [r for r in read_rows(path) if r.get("status") != "ERROR" or r.get("error")]
    cells: dict[tuple[str, str], list[dict]] = defaultdict(list)
    sizes: dict[str, int] = {}
    for r in rows:
        cells[(_group(r["instance"]), r["method"])].append(r)
        sizes[_group(r["instance"])] = int(r.get("size") or 0)
    groups = sorted(sizes, key=lambda g: (sizes[g], g))
    env = rows[0].get("environment", {}) if rows else {}
    print("# Wordsnake at dictionary scale\n")
    print(f"One run of `{len(rows)}` tasks, each in its own process (`cpwords bench --isolate`), ")
    print(f"{env.get('cpus', 2)} cores. Time is the solve's wall time (median over seeds); memory")
    print("is the task's peak resident set plus its largest child's (the forked flow solve), an")
    print("upper bound that includes ~200 MB the task inherits from the bench process.\n")
    print("| list | words | method | proven | objective | gap | time | peak memory |")
    print("|---|---:|---|---|---:|---:|---:|---:|")
    for g in groups:
        for m in ("auto", "mip"):
            rs = cells.get((g, m))
            if not rs:
                continue
            proven = sum(r["status"] == "OPTIMAL" for r in rs)
            times = [r["wall_time"] for r in rs if r.get("wall_time") is not None]
            mems = [r["peak_memory_mb"] for r in rs if r.get("peak_memory_mb") is not None]
            gaps = [r["gap"] for r in rs if r.get("gap") is not None]
            objs = [r["objective"] for r in rs if r.get("objective") is not None]
            obj = (
                _fmt(statistics.median(objs))
                if len(objs) == 1
                else "median " + _fmt(statistics.median(objs))
            )
            print(
                f"| {g} | {sizes[g]:,} | {m} | {proven}/{len(rs)} | {obj} | "
                f"{_fmt(100 * max(gaps), '%') if gaps else '-'} | "
                f"{_fmt(statistics.median(times), ' s') if times else '-'} | "
                f"{_fmt(statistics.median(mems), ' MB') if mems else '-'} |"
            )
    print("\n## Today's explicit model over the default, same run (medians)\n")
    print("| list | words | time ratio | memory ratio |")
    print("|---|---:|---:|---:|")
    for g in groups:
        a, b = cells.get((g, "auto")), cells.get((g, "mip"))
        if not a or not b:
            continue
        ta = statistics.median(r["wall_time"] for r in a)
        tb = statistics.median(r["wall_time"] for r in b)
        ma = statistics.median(r.get("peak_memory_mb") or 0 for r in a)
        mb = statistics.median(r.get("peak_memory_mb") or 0 for r in b)
        print(f"| {g} | {sizes[g]:,} | {tb / ta:,.2f}x | {mb / ma:,.2f}x |")
    print("\n## Status, bound and stages of every row\n")
    print("| list | method | status | objective | bound | stages |")
    print("|---|---|---|---:|---:|---|")
    for g in groups:
        for m in ("auto", "mip"):
            for r in sorted(cells.get((g, m), []), key=lambda r: r["instance"]):
                info = r.get("solver_info") or {}
                st = ", ".join(
                    f"{k}={info[k]}"
                    for k in ("flow_bound", "flow_components", "lagrangian_iterations", "rounds")
                    if k in info
                )
                print(
                    f"| {r['instance']} | {m} | {r['status']} | {_fmt(r.get('objective'))} | "
                    f"{_fmt(r.get('bound'))} | {st or r.get('error', '')[:60]} |"
                )


if __name__ == "__main__":
    main(sys.argv[1])
