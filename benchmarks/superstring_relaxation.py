"""The assignment relaxation with linear and with squared overlaps, on the same lists (issue 32).

For each list, the words contained in no other (the superstring's kept words) are solved twice
by the Wordsnake's default method, once with each score, and the rows say how far the
relaxation's first bound (the assignment relaxation, before any cut) was from the optimum,
how many components its support had, and which stages the proof needed::

    python benchmarks/superstring_relaxation.py \\
        --out benchmarks/results/superstring/relaxation.json \\
        google10k=$GOOGLE_10000_ENGLISH enable1 dict:fr dict:de wordfreq:fr:1000000 ...

A list is a lexicon name (``cpwords lexicons``), ``NAME=PATH`` for a word-list file, or
``random:ALPHABET:N:SEED:MIN:MAX`` for ``N`` seeded random strings of ``MIN`` to ``MAX``
letters (:func:`cpwords.wordsnake.spec.random_strings`); ``--families
ALPHABET:N:COUNT:MIN:MAX`` adds a summary over ``COUNT`` such lists (seeds 1..COUNT): how many
had a first bound equal to the optimum with each score, and the gaps' sum and maximum.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from cpwords.core.lexicon import read_word_list
from cpwords.core.sources import lexicon_words
from cpwords.superstring.models.reduce import reduce_words
from cpwords.superstring.rules import superstring_instance
from cpwords.wordsnake.rules import WordsnakeInstance
from cpwords.wordsnake.spec import random_strings, solve_wordsnake


def _words(source: str) -> tuple[str, list[str]]:
    if source.startswith("random:"):
        _, alphabet, n, seed, lo, hi = source.split(":")
        return source, random_strings(alphabet, int(n), int(seed), int(lo), int(hi))
    if "=" in source:
        name, path = source.split("=", 1)
        return name, read_word_list(path)
    return source, list(lexicon_words(source, "."))


def _row(name: str, kept: tuple[str, ...], score: str, limit: float) -> dict[str, Any]:
    t0 = time.perf_counter()
    res = solve_wordsnake(WordsnakeInstance(kept, name=name, score=score), time_limit=limit)
    info = res.solver_info
    stages = [s["stage"] for s in info.get("stages", [])]
    return {
        "list": name, "score": score, "kept": len(kept), "status": res.status.value,
        "objective": res.objective, "bound": res.bound,
        "first_bound": info.get("flow_bound"), "first_bound_from": info.get("first_bound"),
        "components": info.get("flow_components"), "cycles": info.get("flow_cycles"),
        "stages": stages, "additive": "refinement" in info,
        "lagrangian_iterations": info.get("lagrangian_iterations"),
        "proof": info.get("proof"), "wall_time": time.perf_counter() - t0,
    }  # fmt: skip


def _family(spec: str, limit: float) -> list[dict[str, Any]]:
    """Summary rows (one per score) over a family of random lists."""
    alphabet, n, count, lo, hi = spec.split(":")
    out = []
    for score in ("linear", "squared"):
        gaps, kept = [], []
        for seed in range(1, int(count) + 1):
            words = random_strings(alphabet, int(n), seed, int(lo), int(hi))
            kw = reduce_words(superstring_instance(words).words).kept
            row = _row(spec, kw, score, limit)
            if row["status"] == "OPTIMAL" and row["first_bound"] is not None:
                gaps.append(int(row["first_bound"] - row["objective"]))
            kept.append(len(kw))
        out.append({
            "family": f"{count} x random:{alphabet}:{n}:{lo}:{hi}", "score": score,
            "lists": len(gaps), "tight": sum(g == 0 for g in gaps), "gap_total": sum(gaps),
            "gap_max": max(gaps, default=0), "kept_median": sorted(kept)[len(kept) // 2],
        })  # fmt: skip
    return out


def main() -> None:
    """Run the comparison and write its rows (JSON, one object)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("lists", nargs="*")
    ap.add_argument("--out", required=True)
    ap.add_argument("--time-limit", type=float, default=120.0)
    ap.add_argument("--families", nargs="*", default=[])
    ap.add_argument(
        "--whole", action="store_true", help="every distinct word, not only the kept ones"
    )
    args = ap.parse_args()
    rows = []
    for family in args.families:
        for row in _family(family, args.time_limit):
            print(json.dumps(row), flush=True)
            rows.append(row)
    for source in args.lists or ():
        name, words = _words(source)
        kept = superstring_instance(words).words
        if args.whole:
            name += " (every word)"
        else:
            kept = reduce_words(kept).kept
        for score in ("linear", "squared"):
            row = _row(name, kept, score, args.time_limit)
            print(json.dumps(row), flush=True)
            rows.append(row)
    Path(args.out).write_text(json.dumps({"rows": rows}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
