"""Summarise the whole-language Wordsnake study (rows of `cpwords bench --isolate`) as markdown.

    cpwords bench benchmarks/suites/wordsnake-languages.toml --isolate --jobs 1 \\
        --out benchmarks/results/wordsnake-languages.jsonl
    python benchmarks/report_wordsnake_languages.py \\
        benchmarks/results/wordsnake-languages.jsonl > benchmarks/results/wordsnake-languages.md

One row per list: its size, what the default method proved within the limit, the time and the
peak memory of the task's process tree (the task plus its largest child), and how the bound was
obtained (the greedy assignment proven by potentials or a cold min-cost flow; cancelled cycles;
Lagrangian iterations and cuts).
"""

from __future__ import annotations

import sys
from pathlib import Path

from cpwords.bench.results import read_rows
from cpwords.core.sources import lexicon_words


def main(path: str) -> None:
    rows = [r for r in read_rows(Path(path)) if r.get("status") not in (None, "ERROR")]
    print(
        "| list | words | letters | limit | status | objective | bound | gap | time "
        "| peak memory | first bound | cycles cancelled | Lagrangian iterations / cuts |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        si = r.get("solver_info") or {}
        spec = r.get("instance_spec") or {}
        words = lexicon_words(str(spec["lexicon"])) if "lexicon" in spec else ()
        letters = sum(len(w) for w in words)
        gap = None
        if r.get("objective") is not None and r.get("bound") is not None:
            gap = int(r["bound"] - r["objective"])
        print(
            f"| {r['instance']} | {len(words):,} | {letters:,} | {r.get('time_limit')} s "
            f"| {r['status']} | {r.get('objective') or 0:,.0f} | {r.get('bound') or 0:,.0f} "
            f"| {gap if gap is not None else '-'} | {r.get('wall_time', 0):.1f} s "
            f"| {(r.get('peak_memory_mb') or 0) / 1024:.2f} GiB | {si.get('first_bound', '-')} "
            f"| {si.get('cancelled_cycles', '-')} "
            f"| {si.get('lagrangian_iterations', '-')} / {si.get('cuts', '-')} |"
        )


if __name__ == "__main__":
    main(sys.argv[1])
