"""Benchmark: puzzle design (issue 14): Letter Boxed generation, its difficulty vs NYT par, and
unique prefix/suffix grid puzzles.

Run:  .venv/bin/python benchmarks/bench_design.py [--seeds 1 2 3] [--skip-nyt] [--skip-grid]
Writes benchmarks/results/design/design.json (its report: design/report.md).

* Generation: ``generate_boxes(10, ...)`` with the default lexicon (wordfreq top 100,000), one
  run per seed and per mode (plain 2-word optimum, ``unique``); ``total_s`` includes loading and
  indexing the lexicon (what ``cpwords letterboxed --generate 10`` costs), ``generate_s``
  excludes it. Every box is verified by the independent brute force inside the generator.
* Calibration: ``box_difficulty`` of each of the 332 NYT puzzles of 2024 with the day's own
  dictionary; Spearman rank correlation (average ranks for ties) with the newspaper's par,
  medians per par level. Only aggregates are written (the puzzles stay in ../shared/data).
* Grid: ``design_grid_puzzles`` at N = 5,000, 10,000 and 20,000 most common words (L = 2),
  exact counts and ``count_limit=2`` (uniqueness only).

This is not a ``cpwords bench`` suite: that harness scores solve methods on instances
(objective, bound, gap); generation has no instance and no objective.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

from cpwords.bench.runner import machine
from cpwords.core.lexicon import shared_data_dir

OUT = Path(__file__).parent / "results" / "design"


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rho: Pearson correlation of the average ranks (ties share their mean rank)."""

    def ranks(x: list[float]) -> np.ndarray:
        arr = np.asarray(x, dtype=float)
        order = np.argsort(arr, kind="stable")
        r = np.empty(len(arr))
        i = 0
        while i < len(arr):
            j = i
            while j + 1 < len(arr) and arr[order[j + 1]] == arr[order[i]]:
                j += 1
            r[order[i : j + 1]] = (i + j) / 2 + 1
            i = j + 1
        return r

    return float(np.corrcoef(ranks(a), ranks(b))[0, 1])


def bench_generate(seeds: list[int]) -> list[dict[str, Any]]:
    from cpwords.letterboxed.models.design import generate_boxes
    from cpwords.letterboxed.models.dp import LetterBoxedSolver, builtin_lexicon, default_lexicon

    rows = []
    for unique in (False, True):
        for seed in seeds:
            builtin_lexicon.cache_clear()
            t0 = time.perf_counter()
            solver = LetterBoxedSolver(default_lexicon())
            t1 = time.perf_counter()
            g = generate_boxes(10, solver, seed=seed, unique=unique)
            t2 = time.perf_counter()
            assert g.complete and all(b.verified for b in g.boxes)
            rows.append(
                {
                    "mode": "unique" if unique else "2-word optimum",
                    "seed": seed,
                    "boxes": len(g.boxes),
                    "draws": g.draws,
                    "load_s": t1 - t0,
                    "generate_s": t2 - t1,
                    "total_s": t2 - t0,
                    "median_difficulty": statistics.median(b.difficulty.score for b in g.boxes),
                    "median_2word": statistics.median(b.counts[1] for b in g.boxes),
                    "boxes_list": [str(b.box) for b in g.boxes],
                }
            )
            print(rows[-1], flush=True)
    return rows


def bench_nyt() -> dict[str, Any] | None:
    from cpwords.letterboxed.models.design import box_difficulty
    from cpwords.letterboxed.models.dp import LetterBoxedSolver, count_letterboxed

    data = shared_data_dir()
    if data is None:
        return None
    par: list[int] = []
    score: list[float] = []
    common: list[int] = []
    n2: list[int] = []
    playable: list[int] = []
    t0 = time.perf_counter()
    for line in (data / "letterboxed" / "nyt-2024.jsonl").read_text("utf-8").splitlines():
        d = json.loads(line)
        solver = LetterBoxedSolver(d["dictionary"])
        diff = box_difficulty(d["sides"], solver)
        par.append(d["par"])
        score.append(diff.score)
        common.append(sum(diff.common_solutions))
        n2.append(count_letterboxed(d["sides"], solver, max_words=2).by_words[1])
        playable.append(len(solver.playable(d["sides"])))
    wall = time.perf_counter() - t0
    levels = sorted(set(par))

    def med(xs: list[float]) -> dict[str, float]:
        return {
            str(p): float(statistics.median(x for x, q in zip(xs, par, strict=True) if q == p))
            for p in levels
        }

    return {
        "puzzles": len(par),
        "par_levels": {str(p): par.count(p) for p in levels},
        "wall_s": wall,
        "spearman": {
            "difficulty": spearman(score, par),
            "common_solutions_le3": spearman(common, par),
            "all_2word_solutions": spearman(n2, par),
            "playable_words": spearman(playable, par),
        },
        "median_by_par": {
            "difficulty": med(score),
            "common_solutions_le3": med(common),
            "all_2word_solutions": med(n2),
            "playable_words": med(playable),
        },
        "difficulty_range": [min(score), max(score)],
    }


def bench_grid() -> list[dict[str, Any]]:
    from collections import Counter

    from cpwords.grid.models.design import design_grid_puzzles
    from cpwords.grid.rules import common_tokens, default_board

    board = default_board()
    rows = []
    for n in (5000, 10000, 20000):
        for limit in (2, None):
            t0 = time.perf_counter()
            tokens = common_tokens(n, 2, 2, False)
            d = design_grid_puzzles(board, tokens, count_limit=limit)
            total = time.perf_counter() - t0
            counts = Counter(p.count_up_to_symmetry for p in d.puzzles)
            rows.append(
                {
                    "top": n,
                    "count_limit": limit,
                    "classes": len(d.puzzles),
                    "unique": len(d.unique),
                    "unique_quadruples": [" ".join(p.suffixes) for p in d.unique],
                    "difficulty": [
                        p.difficulty.to_dict() for p in d.unique if p.difficulty is not None
                    ],
                    "enumerate_s": d.stats["enumerate_time"],
                    "count_s": d.stats["count_time"],
                    "total_s": total,
                    "max_count": max(counts, default=0),
                    "median_count": (
                        statistics.median(p.count_up_to_symmetry for p in d.puzzles)
                        if d.puzzles
                        else None
                    ),
                }
            )
            print({k: v for k, v in rows[-1].items() if k != "difficulty"}, flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--skip-nyt", action="store_true")
    ap.add_argument("--skip-grid", action="store_true")
    args = ap.parse_args()
    result: dict[str, Any] = {"machine": machine()}
    result["generate"] = bench_generate(args.seeds)
    result["nyt"] = None if args.skip_nyt else bench_nyt()
    print(result["nyt"], flush=True)
    result["grid"] = [] if args.skip_grid else bench_grid()
    result["machine"]["loadavg_end"] = __import__("os").getloadavg()
    OUT.mkdir(exist_ok=True)
    (OUT / "design.json").write_text(json.dumps(result, indent=1) + "\n", "utf-8")
    print("wrote", OUT / "design.json")


if __name__ == "__main__":
    main()
