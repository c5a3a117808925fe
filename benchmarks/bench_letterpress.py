"""Benchmark: Letterpress word lists, bitset index vs the seed's naive scan and trie, same run.

Run:  /work/venv/bin/python benchmarks/bench_letterpress.py [--repeats 21]
Writes benchmarks/results/letterpress.json and letterpress.md. The index cache lives in a fresh
temporary directory (``$CPWORDS_CACHE_DIR``), so "build" is a cold build and "load" a cache hit.
Query times are wall-clock medians in ms with a warm index, including turning the hits into a
Python list of words; the seed's methods are timed on an already-built trie / loaded list.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _machine import machine

from cpwords.heuristics.letterpress import FirstLetterGroups, Trie, naive_scan
from cpwords.lexicon import english_words_lexicon, load_lexicon, shared_data_dir
from cpwords.models.letterpress import load_letterpress_index

RESULTS = Path(__file__).parent / "results"
SEED_QUERIES = [
    "ovrkqlwislrecrtgmvpfprzey",
    "abcdefghifghijklmnopqrstuvxyz",
    "odidwocswkbafvydehsbiviez",
    "rtlyifebuzkxndovzyzodelap",
]


def median_ms(fn: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return 1000 * statistics.median(times), out


def bench(name: str, source: Path | None, repeats: int) -> dict[str, Any]:
    lex = load_lexicon(source) if source is not None else english_words_lexicon("web2")
    build_ms, _ = median_ms(lambda: load_letterpress_index(source, use_cache=False), 1)
    load_letterpress_index(source)  # writes the cache
    load_ms, index = median_ms(lambda: load_letterpress_index(source), 7)
    assert index.from_cache
    t = time.perf_counter()
    trie = Trie(lex)
    trie_build_ms = 1000 * (time.perf_counter() - t)
    groups = FirstLetterGroups(lex)
    queries = []
    for q in SEED_QUERIES:
        ix_ms, (words, total) = median_ms(lambda q=q: index.query(q), repeats)
        trie_ms, trie_words = median_ms(lambda q=q: trie.query(q), max(3, repeats // 4))
        naive_ms, naive_words = median_ms(lambda q=q: naive_scan(lex, q), 3)
        groups_ms, group_words = median_ms(lambda q=q: groups.query(q), 3)
        assert words == trie_words == naive_words == group_words, f"listings differ for {q}"
        queries.append(
            {
                "letters": q,
                "count": total,
                "longest": max(words, key=len),
                "index_ms": ix_ms,
                "trie_ms": trie_ms,
                "naive_ms": naive_ms,
                "first_letter_ms": groups_ms,
                "trie_over_index": trie_ms / ix_ms,
                "naive_over_index": naive_ms / ix_ms,
            }
        )
        print(
            f"{name} {q}: {total} words, index {ix_ms:.2f} ms, trie {trie_ms:.1f} ms "
            f"(x{trie_ms / ix_ms:.0f}), naive {naive_ms:.0f} ms",
            file=sys.stderr,
        )
    return {
        "name": name,
        "dictionary": str(source) if source else "english-words:web2",
        "words": len(lex),
        "index_build_ms": build_ms,
        "index_load_from_cache_ms": load_ms,
        "trie_build_ms": trie_build_ms,
        "queries": queries,
        "median_index_ms": statistics.median(r["index_ms"] for r in queries),
        "median_trie_ms": statistics.median(r["trie_ms"] for r in queries),
        "median_naive_ms": statistics.median(r["naive_ms"] for r in queries),
        "median_trie_over_index": statistics.median(r["trie_over_index"] for r in queries),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=21)
    args = ap.parse_args()
    os.environ["CPWORDS_CACHE_DIR"] = tempfile.mkdtemp(prefix="cpwords-bench-cache-")
    targets: list[tuple[str, Path | None]] = []
    data = shared_data_dir()
    if data is not None and (data / "letterpress-en.txt").is_file():
        targets.append(("letterpress-en", data / "letterpress-en.txt"))
    else:
        print("../shared/data absent: benchmarking the built-in web2 only", file=sys.stderr)
    targets.append(("web2", None))
    info = machine()
    rows = [bench(name, src, args.repeats) for name, src in targets]
    info["loadavg_end"] = os.getloadavg()
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = {"machine": info, "repeats": args.repeats, "rows": rows}
    (RESULTS / "letterpress.json").write_text(json.dumps(out, indent=1) + "\n")
    lines = [
        "# Letterpress: every word from a bag of letters, bitset index vs the seed (same run)",
        "",
        f"Machine: {info['nproc']} cores, Python {info['python']}, OR-Tools {info['ortools']}; "
        f"load average {info['loadavg_start'][0]:.2f} at start, {info['loadavg_end'][0]:.2f} "
        f"at end (shared box). Index queries: medians of {args.repeats} runs, warm index, "
        "including building the list of words.",
        "",
        "| dictionary | words | index build ms | index load (cache) ms | trie build ms |",
        "|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['name']} | {r['words']} | {r['index_build_ms']:.0f} "
            f"| {r['index_load_from_cache_ms']:.0f} | {r['trie_build_ms']:.0f} |"
        )
    lines += [
        "",
        "| dictionary | letters | words found | index ms | trie ms | naive ms | first-letter ms "
        "| trie / index | naive / index |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        for q in r["queries"]:
            lines.append(
                f"| {r['name']} | {q['letters']} | {q['count']} | {q['index_ms']:.2f} "
                f"| {q['trie_ms']:.1f} | {q['naive_ms']:.0f} | {q['first_letter_ms']:.0f} "
                f"| {q['trie_over_index']:.0f} | {q['naive_over_index']:.0f} |"
            )
        lines.append(
            f"| {r['name']} | **median** | | **{r['median_index_ms']:.2f}** "
            f"| {r['median_trie_ms']:.1f} | {r['median_naive_ms']:.0f} | "
            f"| **{r['median_trie_over_index']:.0f}** | |"
        )
    (RESULTS / "letterpress.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
