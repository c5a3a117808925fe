"""Benchmark: longest Truncate sequence, exact DAG DP vs the seed's two algorithms, same run.

Run:  /work/venv/bin/python benchmarks/bench_truncate.py [--repeats 11]
Writes benchmarks/results/truncate.json and truncate.md. Times are wall-clock medians, in ms,
after the dictionary is loaded (the DP's time includes building the word DAG).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _machine import machine

from cpwords.heuristics.truncate import extend_search, shrink_search
from cpwords.lexicon import Lexicon, english_words_lexicon, load_lexicon, shared_data_dir
from cpwords.models.truncate import solve_truncate, truncate_dag
from cpwords.puzzles.truncate import is_valid_truncate_sequence

RESULTS = Path(__file__).parent / "results"


MINIMA: dict[str, float] = {}


def median_ms(fn: Callable[[], Any], repeats: int, key: str = "") -> tuple[float, Any]:
    """Median wall time in ms; the minimum (least disturbed by other load) goes to MINIMA."""
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    if key:
        MINIMA[key] = 1000 * min(times)
    return 1000 * statistics.median(times), out


def bench(lex: Lexicon, repeats: int, extend_repeats: int) -> dict[str, Any]:
    d = lex.as_set()
    row: dict[str, Any] = {"dictionary": lex.source, "words": len(lex)}
    dp_ms, dp = median_ms(lambda: solve_truncate(lex, verify=False), repeats, "dp")
    dag = truncate_dag(lex)
    sweep_ms, _ = median_ms(lambda: solve_truncate(dag, verify=False), repeats)
    shrink_ms, shrink = median_ms(lambda: shrink_search(lex), max(3, repeats // 2), "shrink")
    extend_ms, extend = median_ms(lambda: extend_search(lex), extend_repeats)
    assert dp.objective == shrink.objective == extend.objective, "methods disagree"
    for seq in (dp.solution.sequence, shrink.solution, extend.solution):
        assert is_valid_truncate_sequence(seq, d)
    full = solve_truncate(lex, all_sequences=True)
    row.update(
        {
            "length": int(dp.objective),
            "count": dp.solution.count,
            "sequence": list(dp.solution.sequence),
            "all_longest": [list(s) for s in full.solution.sequences],
            "arcs": dp.solver_info["arcs"],
            "dp_ms": dp_ms,
            "dp_sweep_only_ms": sweep_ms,
            "seed_shrink_ms": shrink_ms,
            "seed_extend_ms": extend_ms,
            "ratio_shrink_over_dp": shrink_ms / dp_ms,
            "dp_min_ms": MINIMA["dp"],
            "seed_shrink_min_ms": MINIMA["shrink"],
            "ratio_shrink_over_dp_min": MINIMA["shrink"] / MINIMA["dp"],
            "ratio_extend_over_dp": extend_ms / dp_ms,
            "seed_shrink_sequence": list(shrink.solution),
            "seed_extend_sequence": list(extend.solution),
        }
    )
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=11)
    ap.add_argument("--extend-repeats", type=int, default=3)
    args = ap.parse_args()
    rows = []
    data = shared_data_dir()
    lexicons: list[tuple[str, Callable[[], Lexicon]]] = []
    if data is not None and (data / "truncate-final-wordlist.txt").is_file():
        lexicons.append(("truncate", lambda: load_lexicon(data / "truncate-final-wordlist.txt")))
    else:
        print("../shared/data absent: benchmarking the built-in web2 only", file=sys.stderr)
    lexicons.append(("web2", lambda: english_words_lexicon("web2")))
    for name, loader in lexicons:
        t = time.perf_counter()
        lex = loader()
        load_ms = 1000 * (time.perf_counter() - t)
        row = bench(lex, args.repeats, args.extend_repeats)
        row["name"] = name
        row["load_ms"] = load_ms
        rows.append(row)
        print(
            f"{name}: length {row['length']}, {row['count']} longest; DP {row['dp_ms']:.1f} ms, "
            f"seed shrink {row['seed_shrink_ms']:.1f} ms (x{row['ratio_shrink_over_dp']:.1f}), "
            f"seed extend {row['seed_extend_ms']:.0f} ms (x{row['ratio_extend_over_dp']:.0f})",
            file=sys.stderr,
        )
    info = machine()
    info["loadavg_end"] = os.getloadavg()
    out = {"machine": info, "repeats": args.repeats, "rows": rows}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "truncate.json").write_text(json.dumps(out, indent=1) + "\n")
    lines = [
        "# Truncate: longest sequence, exact DP vs the seed's algorithms (same run)",
        "",
        f"Machine: {info['nproc']} cores, Python {info['python']}, OR-Tools {info['ortools']}; "
        f"load average {info['loadavg_start'][0]:.2f} at start, {info['loadavg_end'][0]:.2f} "
        f"at end (shared box). Medians of {args.repeats} runs (seed extend: "
        f"{args.extend_repeats}), dictionary already loaded.",
        "",
        "| dictionary | words | longest | # longest | DP ms | DP sweep only ms | seed shrink ms "
        "| seed extend ms | shrink / DP | extend / DP | DP min ms | shrink min ms |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['name']} | {r['words']} | {r['length']} | {r['count']} | {r['dp_ms']:.1f} "
            f"| {r['dp_sweep_only_ms']:.1f} | {r['seed_shrink_ms']:.1f} "
            f"| {r['seed_extend_ms']:.0f} | {r['ratio_shrink_over_dp']:.1f} "
            f"| {r['ratio_extend_over_dp']:.0f} | {r['dp_min_ms']:.1f} "
            f"| {r['seed_shrink_min_ms']:.1f} |"
        )
    lines += [
        "",
        "Min columns: the fastest of the runs, the figure least disturbed by other jobs on the",
        "shared cores.",
        "",
        "One longest sequence per dictionary:",
        "",
    ]
    lines += [f"- {r['name']}: {' -> '.join(r['sequence'])}" for r in rows]
    (RESULTS / "truncate.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
