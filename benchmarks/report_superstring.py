"""Summarise the shortest-superstring study (rows of `cpwords bench --isolate`) as markdown.

    python benchmarks/report_superstring.py benchmarks/results/superstring/superstring.jsonl \\
        [benchmarks/results/superstring/superstring-kmers.jsonl] \\
        [--relaxation benchmarks/results/superstring/relaxation.json]

One row per list: the words, those inside others, the proven length (and its bound), the greedy
superstring's length against it, each method's solve time, the task's peak memory and the
certificate's verdict (re-checked by the study). With ``--relaxation`` (the rows of
``benchmarks/superstring_relaxation.py``), a second table: the assignment relaxation's first
bound against the optimum, with linear and with squared overlaps, on the same kept words.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from typing import Any

from cpwords.bench.results import read_rows


def _n(x: Any) -> str:
    return "-" if x is None else f"{int(x):,}"


def _s(x: Any) -> str:
    if x is None:
        return "-"
    return f"{x:.2f} s" if x < 10 else f"{x:.1f} s"


def _lists(paths: list[str]) -> None:
    cells: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    order: list[str] = []
    for path in paths:
        for r in read_rows(path):
            if r["instance"] not in cells:
                order.append(r["instance"])
            cells[r["instance"]][r["method"]] = r
    print("| list | words | inside others | exact | bound | status | greedy | greedy over "
          "optimum | exact time | greedy time | peak memory | certificate |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|")
    for name in order:
        ex, gr = cells[name].get("exact", {}), cells[name].get("greedy", {})
        meas = ex.get("measures") or gr.get("measures") or {}
        opt = ex.get("objective") if ex.get("status") == "OPTIMAL" else None
        over = "-"
        if opt is not None and gr.get("objective") is not None:
            extra = gr["objective"] - opt
            over = f"+{extra:,.0f} ({100 * extra / opt:.3g}%)" if extra else "0"
        status = ex.get("status", "-")
        if ex.get("status") in ("ERROR", "TIMEOUT"):
            status += f": {str(ex.get('error', ''))[:60]}"
        mem = max((r.get("peak_memory_mb") or 0) for r in (ex, gr))
        print(
            f"| {name} | {_n(ex.get('size') or gr.get('size'))} | {_n(meas.get('contained'))} | "
            f"{_n(ex.get('objective'))} | {_n(ex.get('bound'))} | {status} | "
            f"{_n(gr.get('objective'))} | {over} | {_s(ex.get('wall_time'))} | "
            f"{_s(gr.get('wall_time'))} | {_n(mem)} MB | {ex.get('certified', '-')} |"
        )


def _relaxation(paths: list[str]) -> None:
    rows = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            rows += json.load(f)["rows"]
    print("\n## The relaxation, linear and squared\n")
    print("The same kept words (those inside no other), solved by the Wordsnake's default method")
    print("with each score: the assignment relaxation's first bound (before any cut) against the")
    print("best ordering (the optimum when the status is OPTIMAL), the components of its decoded")
    print("support (-: one), and the stages the proof needed beyond the flow. Rows marked")
    print("'every word' keep the words that are inside others (the Wordsnake, not the")
    print("superstring). Time limit 120 s each.\n")
    families = [r for r in rows if "family" in r]
    rows = [r for r in rows if "family" not in r]
    print("| list | kept words | score | objective | first bound | relaxation gap | components "
          "| further stages | status | time |")  # fmt: skip
    print("|---|---:|---|---:|---:|---:|---:|---|---|---:|")
    for r in rows:
        gap = None
        if r.get("first_bound") is not None and r.get("objective") is not None:
            gap = r["first_bound"] - r["objective"]
        extra = [s for s in r.get("stages", []) if s != "flow"]
        if r.get("additive"):
            extra.insert(0, "additive bound")
        print(
            f"| {r['list']} | {r['kept']:,} | {r['score']} | {_n(r.get('objective'))} | "
            f"{_n(r.get('first_bound'))} | {_n(gap)} | {_n(r.get('components'))} | "
            f"{', '.join(extra) or '-'} | {r['status']} | {_s(r.get('wall_time'))} |"
        )
    if families:
        print("\nFamilies of random lists (seeds 1 to the count), the kept words of each:\n")
        print("| family | kept words (median) | score | proven | first bound = optimum | "
              "gap points, sum | gap points, largest |")  # fmt: skip
        print("|---|---:|---|---:|---:|---:|---:|")
        for r in families:
            print(
                f"| {r['family']} | {r['kept_median']:,} | {r['score']} | {r['lists']} | "
                f"{r['tight']} | {r['gap_total']:,} | {r['gap_max']:,} |"
            )


def main() -> None:
    """Print the report (markdown) on stdout."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", nargs="+")
    ap.add_argument("--relaxation", nargs="*", default=[])
    args = ap.parse_args()
    print("# Shortest common superstrings\n")
    _lists(args.results)
    if args.relaxation:
        _relaxation(args.relaxation)


if __name__ == "__main__":
    main()
