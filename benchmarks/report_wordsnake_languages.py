"""Summarise the whole-language Wordsnake study (rows of `cpwords bench --isolate`) as markdown.

    cpwords bench benchmarks/suites/wordsnake-languages.toml --isolate --jobs 1 \\
        --out benchmarks/results/wordsnake-languages/wordsnake-languages.jsonl
    python benchmarks/report_wordsnake_languages.py \\
        benchmarks/results/wordsnake-languages/wordsnake-languages.jsonl \\
        > benchmarks/results/wordsnake-languages/report.md

One row per list: its size, what the default method proved within the limit, the time and the
peak memory of the task's process tree (the task plus its largest child), and how the bound was
obtained (the greedy assignment proven by potentials or a cold min-cost flow; cancelled cycles;
Lagrangian iterations and cuts).

    python benchmarks/report_wordsnake_languages.py --compare OLD.jsonl NEW.jsonl

puts two runs side by side (gap, time and peak memory, with ratios new / old) and details the
additive bound and the neighbourhood search of the new run.
"""

from __future__ import annotations

import sys
from pathlib import Path

from cpwords.bench.results import read_rows
from cpwords.core.sources import lexicon_words


def _gap(r: dict) -> int | None:
    if r.get("objective") is None or r.get("bound") is None:
        return None
    return int(r["bound"] - r["objective"])


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
        gap = _gap(r)
        print(
            f"| {r['instance']} | {len(words):,} | {letters:,} | {r.get('time_limit')} s "
            f"| {r['status']} | {r.get('objective') or 0:,.0f} | {r.get('bound') or 0:,.0f} "
            f"| {gap if gap is not None else '-'} | {r.get('wall_time', 0):.1f} s "
            f"| {(r.get('peak_memory_mb') or 0) / 1024:.2f} GiB | {si.get('first_bound', '-')} "
            f"| {si.get('cancelled_cycles', '-')} "
            f"| {si.get('lagrangian_iterations', '-')} / {si.get('cuts', '-')} |"
        )


def compare(old_path: str, new_path: str) -> None:
    old = {r["instance"]: r for r in read_rows(Path(old_path)) if r.get("status") != "ERROR"}
    new = [r for r in read_rows(Path(new_path)) if r.get("status") not in (None, "ERROR")]
    print(
        "| list | status (old -> new) | gap (old -> new) | time old | time new | time ratio "
        "| peak memory old | peak memory new | memory ratio |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in new:
        o = old.get(r["instance"], {})
        go, gn = _gap(o), _gap(r)
        to, tn = o.get("wall_time"), r.get("wall_time")
        mo, mn = o.get("peak_memory_mb"), r.get("peak_memory_mb")
        tr = f"{tn / to:.2f}" if to and tn else "-"
        mr = f"{mn / mo:.2f}" if mo and mn else "-"
        print(
            f"| {r['instance']} | {o.get('status', '-')} -> {r['status']} "
            f"| {go if go is not None else '-'} -> {gn if gn is not None else '-'} "
            f"| {to or 0:.1f} s | {tn or 0:.1f} s | {tr} "
            f"| {(mo or 0) / 1024:.2f} GiB | {(mn or 0) / 1024:.2f} GiB | {mr} |"
        )
    print()
    print(
        "| list | first bound | additive bound | its LP (certified) | F words / useful pairs "
        "/ cuts / branched | cover time | families searched | gain of the search | search time |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in new:
        ref = (r.get("solver_info") or {}).get("refinement")
        if not ref:
            continue
        pc = ref.get("path_cover", {})
        ns = ref.get("neighbourhood_search", {})
        print(
            f"| {r['instance']} | {ref.get('first_bound', 0):,} | {ref.get('bound', 0):,} "
            f"| {ref.get('lp_bound', 0):,} | {pc.get('words', 0):,} / {pc.get('arcs', 0):,} / "
            f"{pc.get('cuts', 0)} / {pc.get('branched', 0)} | {pc.get('time', 0):.1f} s "
            f"| {ns.get('families', '-')} | {ns.get('gain', '-')} | {ns.get('time', 0):.1f} s |"
        )


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        main(sys.argv[1])
